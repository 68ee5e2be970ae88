#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of what tools/regen.sh generates, by the C compiler's reading.

ynl_check.py abi OLD NEW
    Every name of uapi header OLD (enum constant, macro, enum tag) exists
    in header NEW with the same value: a program printing each name's
    value is compiled against both and the outputs compared. New names
    are allowed (uapi only grows), and so is the growth of an enum's
    count and maximum, the pair "__X, X = (__X - 1)" that ends it
    (appending a value raises them); nothing else may change, not even a
    value whose name ends in _MAX (UET_A_INFO_CFG_MAX is an attribute).
ynl_check.py consts SPEC ROOT
    Every const of SPEC that a kernel header defines has the spec's value
    there (the policies use the C name, the spec and the ynl CLI the
    value).
"""

import os
import re
import subprocess
import sys
import tempfile

import yaml


def names(header):
    """Enum constants, valued macros and enum tags of HEADER's text."""
    text = re.sub(r'/\*.*?\*/', '', header, flags=re.S)
    consts, tags = [], []
    for tag, body in re.findall(r'enum\s*(\w*)\s*{(.*?)}', text, flags=re.S):
        if tag:
            tags.append(tag)
        for item in body.split(','):
            m = re.match(r'\s*(\w+)', item)
            if m:
                consts.append(m.group(1))
    for name, value in re.findall(r'^#define\s+(\w+)[ \t]+(\S.*)$', text,
                                  flags=re.M):
        consts.append(name)
    return consts, tags


PROLOGUE = r'''
#include <stdio.h>
static void ps(const char *n, const char *v) { printf("%s \"%s\"\n", n, v); }
static void pi(const char *n, long long v) { printf("%s %lld\n", n, v); }
#define P(x) _Generic((x), char *: ps, const char *: ps, default: pi)(#x, x)
int main(void)
{
'''


def values(header, consts, tags, cflags=()):
    """NAME VALUE lines: CONSTS and TAGS as HEADER (a path) defines them,
    or the compiler's complaint."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'v.c')
        exe = os.path.join(tmp, 'v')
        with open(src, 'w', encoding='utf-8') as f:
            f.write(f'#include "{os.path.abspath(header)}"\n' + PROLOGUE)
            for c in consts:
                f.write(f'\tP({c});\n')
            for t in tags:
                f.write(f'\tprintf("enum {t} %zu\\n", sizeof(enum {t}));\n')
            f.write('\treturn 0;\n}\n')
        cc = subprocess.run(['cc', '-std=gnu11', *cflags, '-o', exe, src],
                            capture_output=True, text=True, check=False)
        if cc.returncode:
            return None, cc.stderr
        run = subprocess.run([exe], capture_output=True, text=True,
                             check=True)
        return run.stdout.splitlines(), ''


def markers(header):
    """The count and maximum names of HEADER's enums: X and __X of each
    "X = (__X - 1)"."""
    text = re.sub(r'/\*.*?\*/', '', header, flags=re.S)
    found = set()
    for name, count in re.findall(r'(\w+)\s*=\s*\(\s*(__\w+)\s*-\s*1\s*\)',
                                  text):
        found.update((name, count))
    return found


def grows(old, new, marks):
    """True when a line of values() is an enum's count or maximum (one of
    MARKS) that grew, as appending a value makes it."""
    oname, oval = old.split(' ', 1)
    nname, nval = new.split(' ', 1)
    return (oname == nname and oname in marks and
            oval.lstrip('-').isdigit() and nval.lstrip('-').isdigit() and
            int(nval) > int(oval))


def abi(old, new):
    """Exit status: 0 when NEW keeps every name and value of OLD."""
    with open(old, encoding='utf-8') as f:
        text = f.read()
    consts, tags = names(text)
    marks = markers(text)
    want, err = values(old, consts, tags)
    if want is None:
        sys.exit(f'ynl_check: {old} does not compile:\n{err}')
    got, err = values(new, consts, tags)
    if got is None:
        print(f'ynl_check: {new} lacks names of {old}:\n{err}',
              file=sys.stderr)
        return 1
    bad = [f'  {w}  ->  {g}' for w, g in zip(want, got)
           if w != g and not grows(w, g, marks)]
    if bad:
        print(f'ynl_check: {new} changes values of {old}:', *bad,
              sep='\n', file=sys.stderr)
        return 1
    print(f'ynl_check: {new} keeps the {len(consts)} names and '
          f'{len(tags)} enum tags of {old}')
    return 0


def consts(spec, root):
    """Exit status: 0 when the C values of SPEC's header consts match."""
    with open(spec, encoding='utf-8') as f:
        family = yaml.safe_load(f)
    defs = [d for d in family.get('definitions', [])
            if d['type'] == 'const' and d.get('header')]
    status = 0
    for header in sorted({d['header'] for d in defs}):
        mine = [d for d in defs if d['header'] == header]
        cnames = [d['name'].upper().replace('-', '_') for d in mine]
        got, err = values(os.path.join(root, 'include', header), cnames, [],
                          ['-I', os.path.join(root, 'include'),
                           '-I', os.path.join(root, 'uapi'),
                           '-Du8=__u8', '-Du16=__u16', '-Du32=__u32',
                           '-Du64=__u64'])
        if got is None:
            print(f'ynl_check: {header}:\n{err}', file=sys.stderr)
            return 1
        for d, line in zip(mine, got):
            cname, value = line.split(' ', 1)
            if int(value) != d['value']:
                print(f'ynl_check: {cname} is {value} in {header}, '
                      f'{d["value"]} in {spec}', file=sys.stderr)
                status = 1
        if not status:
            print(f'ynl_check: {len(mine)} consts of {spec} match {header}')
    return status


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'abi':
        return abi(sys.argv[2], sys.argv[3])
    if len(sys.argv) == 4 and sys.argv[1] == 'consts':
        return consts(sys.argv[2], sys.argv[3])
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main())
