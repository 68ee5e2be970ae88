/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SPRAYBENCH_LINUX_NETLINK_H
#define _SPRAYBENCH_LINUX_NETLINK_H

#include <errno.h>

struct netlink_ext_ack {
	const char *_msg;
};

#define NL_SET_ERR_MSG(extack, msg)			\
	do {						\
		struct netlink_ext_ack *__e = (extack);	\
		if (__e)				\
			__e->_msg = (msg);		\
	} while (0)

#endif
