// SPDX-License-Identifier: GPL-2.0
/*
 * uet_uaf: a test-only module that is wrong on purpose. Loading it reads
 * freed memory and leaks an allocation, so that tools/vm/prove-sanitizers
 * can check that the sanitizer VM reports both (KASAN, kmemleak). Never
 * load it anywhere else.
 */
#include <linux/module.h>
#include <linux/slab.h>

static int __init uet_uaf_init(void)
{
	char *p, *leak;

	p = kmalloc(64, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	kfree(p);
	/* the use after free KASAN must report */
	pr_info("uet_uaf: read %d after free\n", READ_ONCE(p[8]));

	/* the leak kmemleak must report: nothing keeps the pointer */
	leak = kmalloc(128, GFP_KERNEL);
	if (!leak)
		return -ENOMEM;
	/*
	 * Without this, GCC sees that the object never escapes and drops
	 * the memset: the filling is how prove-sanitizers knows the object.
	 */
	OPTIMIZER_HIDE_VAR(leak);
	memset(leak, 0x5a, 128);
	return 0;
}

static void __exit uet_uaf_exit(void)
{
}

module_init(uet_uaf_init);
module_exit(uet_uaf_exit);
MODULE_DESCRIPTION("uet test module: a use after free and a leak, on purpose");
MODULE_LICENSE("GPL");
