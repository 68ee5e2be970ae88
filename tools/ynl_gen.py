#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ynl_gen.py KSRC YNL-GEN-C-ARGS...: the kernel's ynl-gen-c.py, run from
the kernel tree KSRC on an out-of-tree family (tools/regen.sh calls it).

What it changes in ynl-gen-c.py's output, and why:
 - uapi: every enum gets kernel-doc from the spec's doc fields (upstream
   renders it for definitions only), and the family doc heads the file;
   the header was hand-written and documented before it was generated.
 - kernel: only the request policies and their range tables. The ops
   table stays hand-written in drivers/uet/netlink.c: ynl-gen-c emits
   genl_split_ops (Linux 6.2+), and its per-op genl_ops has no start/done
   callbacks nor dump policies; the multicast groups stay there too.
 - kernel: the uapi header is <linux/...> (Kbuild puts uapi/ on the
   include path), not <uapi/linux/...> of an in-tree family.
 - policy entries longer than 80 columns are split after their '='.
 - kernel: range tables are not const: Linux 6.1's struct nla_policy
   points to them without const (6.2 added it).
 - --hdr-include PATH: the source includes its header as <PATH> (the
   header goes to include/, for KUnit too).
 - the "auto-generated from" path is relative to this repository, which
   has no MAINTAINERS file for ynl-gen-c.py to find its root by.
"""

import importlib.util
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def load(ksrc):
    """ynl-gen-c.py of KSRC, imported as a module."""
    ynl = os.path.join(ksrc, 'tools', 'net', 'ynl')
    sys.path.insert(0, ynl)
    spec = importlib.util.spec_from_file_location(
        'ynl_gen_c', os.path.join(ynl, 'ynl-gen-c.py'))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def kdoc(cw, title, doc, entries):
    """A kernel-doc comment: TITLE - first paragraph of DOC, then @NAME:
    DOC of each of ENTRIES (name, doc), then DOC's further paragraphs."""
    paras = [p for p in (doc or '').strip().split('\n\n') if p.strip()]
    cw.p('/**')
    cw.write_doc_line(title + (' - ' + paras[0] if paras else ''))
    for name, edoc in entries:
        cw.write_doc_line(f'@{name}: {edoc or ""}'.rstrip())
    for para in paras[1:]:
        cw.p(' *')
        cw.write_doc_line(para, indent=False)
    cw.p(' */')


def patch(gen, ksrc):
    """Adapt GEN (ynl-gen-c.py of KSRC, as a module) as the docstring
    says."""
    uapi_enum_start = gen.uapi_enum_start
    spec_init = gen.SpecFamily.__init__
    req_policy_fwd_orig = gen.print_req_policy_fwd
    render_uapi = gen.render_uapi

    def find_kernel_root(full_path):
        return ROOT, os.path.relpath(os.path.realpath(full_path), ROOT)

    def enum_start(family, cw, obj, ckey='', enum_name='enum-name'):
        if 'attributes' in obj:
            aset = family.attr_sets[obj['name']]
            kdoc(cw, 'enum ' + gen.c_lower(obj['enum-name']), obj.get('doc'),
                 [(a.enum_name, a.yaml.get('doc')) for _, a in aset.items()])
        elif 'list' in obj:
            kdoc(cw, 'enum ' + gen.c_lower(obj['enum-name']),
                 f'generic netlink commands of the "{family.name}" family',
                 [(op.enum_name, op.get('doc')) for op in family.msgs.values()])
        uapi_enum_start(family, cw, obj, ckey, enum_name)

    def render(family, cw):
        cw.p('/*')
        for para in family['doc'].strip().split('\n\n'):
            cw.write_doc_line(para, indent=False)
            cw.p(' *')
        cw.write_doc_line(f'{family.ident_name}: generated from '
                          f'Documentation/netlink/specs/{family.name}.yaml '
                          'by make regen.', indent=False)
        cw.p(' */')
        render_uapi(family, cw)

    def nothing(*args, **kwargs):
        pass

    # The spec is validated against KSRC's schema, not one next to it.
    def family_init(self, spec_path, schema_path=None, exclude_ops=None):
        if schema_path is None:
            with open(spec_path, encoding='utf-8') as f:
                proto = gen.yaml.safe_load(f).get('protocol', 'genetlink')
            schema_path = os.path.join(ksrc, 'Documentation', 'netlink',
                                       proto + '.yaml')
        spec_init(self, spec_path, schema_path, exclude_ops)

    # A do without a request has no policy: genetlink refuses every
    # attribute of it (resv_start_op 0).
    def req_policy_fwd(cw, struct, ri=None, terminate=True):
        if struct.attr_max_val is not None:
            req_policy_fwd_orig(cw, struct, ri, terminate)

    # ynl-gen-c declares the policies of do requests only; declare those of
    # dump requests as well, where the ops table would go.
    def dump_policies_fwd(family, cw):
        for op in family.ops.values():
            if 'dump' in op and 'request' in op['dump'] and 'do' not in op:
                ri = gen.RenderInfo(cw, family, 'kernel', op, 'dump')
                gen.print_req_policy_fwd(cw, ri.struct['request'], ri=ri)
                cw.nl()

    gen.SpecFamily.__init__ = family_init
    gen.print_req_policy_fwd = req_policy_fwd
    gen.find_kernel_root = find_kernel_root
    gen.uapi_enum_start = enum_start
    gen.render_uapi = render
    gen.print_kernel_op_table = nothing
    gen.print_kernel_op_table_hdr = dump_policies_fwd
    gen.print_kernel_mcgrp_src = nothing
    gen.print_kernel_mcgrp_hdr = nothing


def wrap(line):
    """LINE, a policy entry longer than 80 columns split after its '='
    (as netlink.c was written; checkpatch allows 100 columns)."""
    if (not line.startswith('\t[') or ' = ' not in line or
            len(line.expandtabs()) <= 80):
        return line
    head, tail = line.split(' = ', 1)
    return f'{head} =\n\t\t{tail}'


def main():
    ksrc = sys.argv.pop(1)
    # --hdr-include PATH: how the source includes its header
    hdr = None
    if '--hdr-include' in sys.argv:
        i = sys.argv.index('--hdr-include')
        hdr = sys.argv[i + 1]
        del sys.argv[i:i + 2]
    gen = load(ksrc)
    patch(gen, ksrc)
    out = sys.argv[sys.argv.index('-o') + 1]
    gen.main()
    # main()'s writer goes out of scope on return, which writes the file.
    with open(out, encoding='utf-8') as f:
        text = f.read()
    text = text.replace('#include <uapi/linux/', '#include <linux/')
    text = text.replace('static const struct netlink_range_validation',
                        'static struct netlink_range_validation')
    if hdr:
        text = re.sub(r'#include "[^"]*-gen.h"', f'#include <{hdr}>', text)
    # the count and max entries of an enum are not API to document:
    # kernel-doc -Wall skips what follows "private:"
    text = re.sub(r'\n(\t__[A-Z0-9_]+,\n)', r'\n\t/* private: */\n\1', text)
    # one include per definition that names a header: keep the first
    lines = []
    for line in text.split('\n'):
        if not (line.startswith('#include') and line in lines):
            lines.append(line)
    text = '\n'.join(wrap(line) for line in lines)
    with open(out, 'w', encoding='utf-8') as f:
        f.write(text)


if __name__ == '__main__':
    main()
