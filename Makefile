# SPDX-License-Identifier: GPL-2.0
#
# uet: out-of-tree module, uetctl and the test system.
#   make            build uet.ko and the tools
#   make check      build + lint + kunit + selftests (the test command)
#   make demo       the spraying demo in a VM

UET_ROOT := $(CURDIR)
KDIR ?= $(shell $(UET_ROOT)/tools/kdir.sh)
KVER ?= $(shell $(UET_ROOT)/tools/kdir.sh --kver $(KDIR))
INSTALL_MOD_DIR ?= updates
PREFIX ?= /usr/local
KBUILD_ARGS := -C $(KDIR) M=$(UET_ROOT) CONFIG_UET=m

.PHONY: all module tools deps lint kunit selftests check demo install clean

all: module tools bpf

# The selftests' BPF programs (selftests/*.bpf.c): the trimming switch.
include $(UET_ROOT)/tools/bpf.mk

module:
	@echo "uet: building against KDIR=$(KDIR)"
	$(MAKE) $(KBUILD_ARGS) modules

tools:
	$(MAKE) -C tools

deps:
	@$(UET_ROOT)/tools/install-deps.sh

lint:
	@$(UET_ROOT)/tools/lint.sh

kunit:
	@$(UET_ROOT)/tools/kunit/run-kunit

selftests: all
	@$(UET_ROOT)/tools/vm/run-selftests

check:
	@$(UET_ROOT)/tools/check.sh

demo: all
	@$(UET_ROOT)/tools/vm/vm-run -- $(UET_ROOT)/tools/demo.sh

install: all
	$(MAKE) $(KBUILD_ARGS) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	depmod -a $(KVER)
	$(MAKE) -C tools PREFIX=$(PREFIX) install

clean: bpf-clean
	$(MAKE) $(KBUILD_ARGS) clean
	$(MAKE) -C tools clean
