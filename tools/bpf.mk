# SPDX-License-Identifier: GPL-2.0
#
# The BPF programs of the selftests: selftests/*.bpf.c -> *.bpf.o, built on
# the host (the VM sees the tree read-only).  Included by the top-level
# Makefile, or on its own:
#	make -f tools/bpf.mk
# Needs clang, llvm and libbpf-dev (tools/install-deps.sh).

UET_ROOT ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
BPF_CLANG ?= clang
# -target bpf does not search the multiarch include directory for <asm/*.h>
BPF_CFLAGS ?= -O2 -g -Wall -Werror -target bpf \
	-I/usr/include/$(shell $(CC) -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)
BPF_SRCS := $(wildcard $(UET_ROOT)/selftests/*.bpf.c)
BPF_OBJS := $(BPF_SRCS:.c=.o)

.PHONY: bpf bpf-clean

bpf: $(BPF_OBJS)

$(UET_ROOT)/selftests/%.bpf.o: $(UET_ROOT)/selftests/%.bpf.c
	$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@

bpf-clean:
	rm -f $(BPF_OBJS)
