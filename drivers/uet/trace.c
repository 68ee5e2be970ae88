// SPDX-License-Identifier: GPL-2.0
/*
 * uet: instantiates the tracepoints of include/trace/events/uet.h.
 */
#define CREATE_TRACE_POINTS
#include <trace/events/uet.h>
