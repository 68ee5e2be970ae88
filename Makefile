# SPDX-License-Identifier: GPL-2.0
#
# uet: out-of-tree module, uetctl and the test system.
#   make            build uet.ko and the tools
#   make check      build + lint + kunit + selftests (the test command)
#   make regen      netlink uapi header and policies from the spec
#   make demo       the spraying demo in a VM (installs what it needs first)
#   make dkms-check  dkms build and install of this checkout, each kernel

UET_ROOT := $(CURDIR)
# Recursively expanded, so tools/kdir.sh runs when a recipe first needs
# KDIR, not when make reads this file: `make demo` installs the headers
# before anything asks for them.
KDIR ?= $(shell $(UET_ROOT)/tools/kdir.sh)
KVER ?= $(shell $(UET_ROOT)/tools/kdir.sh --kver $(KDIR))
INSTALL_MOD_DIR ?= updates
PREFIX ?= /usr/local
KBUILD_ARGS = -C $(KDIR) M=$(UET_ROOT) CONFIG_UET=m

.PHONY: all module tools deps deps-if-missing lint regen kunit selftests check demo \
	dkms-check install clean

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

# deps only when something is missing, as tools/check.sh does
deps-if-missing:
	@$(UET_ROOT)/tools/install-deps.sh --check >/dev/null || \
		$(UET_ROOT)/tools/install-deps.sh

lint:
	@$(UET_ROOT)/tools/lint.sh

# The netlink family's uapi header and policies, from its spec;
# `make regen REGEN_ARGS=--check` only compares.
regen:
	@$(UET_ROOT)/tools/regen.sh $(REGEN_ARGS)

# KUnit on UML, or in the sanitizer VM with UET_CHECK_SANITIZER=1
kunit:
	@if [ "$${UET_CHECK_SANITIZER:-0}" = 1 ]; then \
		$(UET_ROOT)/tools/kunit/run-kunit; \
	else \
		$(UET_ROOT)/tools/kunit/run-kunit-uml; \
	fi

selftests: all
	@$(UET_ROOT)/tools/vm/run-selftests

check:
	@$(UET_ROOT)/tools/check.sh

# in order, each step a make of its own: deps first, so that the build
# finds the headers it installed
demo:
	@$(MAKE) --no-print-directory deps-if-missing
	@$(MAKE) --no-print-directory all
	@$(UET_ROOT)/tools/vm/vm-run -- $(UET_ROOT)/tools/demo.sh

dkms-check:
	@$(UET_ROOT)/tools/dkms-check.sh

install: all
	$(MAKE) $(KBUILD_ARGS) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	depmod -a $(KVER)
	$(MAKE) -C tools PREFIX=$(PREFIX) install

clean: bpf-clean
	$(MAKE) $(KBUILD_ARGS) clean
	$(MAKE) -C tools clean
