// SPDX-License-Identifier: GPL-2.0
/*
 * uet: message buffers.  One allocation per message (a page vector), never
 * one per packet; packets copy in and out at their offset.
 */
#include <linux/gfp.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <uet/kunit.h>
#include <uet/msg.h>

/**
 * uet_buf_alloc() - allocate the buffer of one message
 * @len: bytes
 * @gfp: GFP_KERNEL from sendmsg(), GFP_ATOMIC on receive
 *
 * Return: the buffer, or NULL when memory is short.
 */
struct uet_buf *uet_buf_alloc(u32 len, gfp_t gfp)
{
	u32 i, n = DIV_ROUND_UP(len, PAGE_SIZE);
	struct uet_buf *b;

	b = kvmalloc(struct_size(b, pages, n), gfp | __GFP_NOWARN);
	if (!b)
		return NULL;
	b->len = len;
	b->npages = 0;
	for (i = 0; i < n; i++) {
		b->pages[i] = alloc_page(gfp | __GFP_NOWARN);
		if (!b->pages[i]) {
			uet_buf_free(b);
			return NULL;
		}
		b->npages++;
	}
	return b;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_buf_alloc);

/**
 * uet_buf_free() - free a message buffer
 * @b: the buffer, or NULL
 *
 * Context: any (kvfree() defers from interrupt context).
 */
void uet_buf_free(struct uet_buf *b)
{
	u32 i;

	if (!b)
		return;
	for (i = 0; i < b->npages; i++)
		__free_page(b->pages[i]);
	kvfree(b);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_buf_free);

/**
 * uet_buf_truesize() - memory a buffer of @len bytes takes
 * @len: message length
 *
 * Return: bytes to charge against a socket's buffer budget.
 */
size_t uet_buf_truesize(u32 len)
{
	u32 n = DIV_ROUND_UP(len, PAGE_SIZE);

	return struct_size((struct uet_buf *)NULL, pages, n) +
	       (size_t)n * PAGE_SIZE;
}

/**
 * uet_buf_from_iter() - fill a buffer from the user's data
 * @b: the buffer
 * @from: b->len bytes to copy
 *
 * Return: 0, or -EFAULT.
 */
int uet_buf_from_iter(struct uet_buf *b, struct iov_iter *from)
{
	u32 i, left = b->len;

	for (i = 0; i < b->npages; i++) {
		size_t n = min_t(u32, left, PAGE_SIZE);

		if (copy_page_from_iter(b->pages[i], 0, n, from) != n)
			return -EFAULT;
		left -= n;
	}
	return 0;
}

/**
 * uet_buf_to_iter() - copy the first bytes of a buffer to the user
 * @b: the buffer
 * @len: bytes to copy, at most b->len
 * @to: destination
 *
 * Return: 0, or -EFAULT.
 */
int uet_buf_to_iter(const struct uet_buf *b, u32 len, struct iov_iter *to)
{
	u32 i;

	for (i = 0; len; i++) {
		size_t n = min_t(u32, len, PAGE_SIZE);

		if (copy_page_to_iter(b->pages[i], 0, n, to) != n)
			return -EFAULT;
		len -= n;
	}
	return 0;
}

/**
 * uet_buf_read() - copy bytes out of a buffer (into a packet being built)
 * @b: the buffer
 * @off: offset in the message
 * @to: destination
 * @len: bytes; @off + @len must not exceed b->len
 */
void uet_buf_read(const struct uet_buf *b, u32 off, void *to, u32 len)
{
	while (len) {
		u32 poff = offset_in_page(off);
		u32 n = min_t(u32, len, PAGE_SIZE - poff);

		memcpy(to, page_address(b->pages[off >> PAGE_SHIFT]) + poff, n);
		to += n;
		off += n;
		len -= n;
	}
}

/**
 * uet_buf_write_skb() - write a packet's payload into a buffer
 * @b: the buffer
 * @off: offset in the message
 * @skb: the packet
 * @skb_off: offset of the payload in @skb
 * @len: bytes; @off + @len must not exceed b->len
 *
 * Return: 0, or the error of skb_copy_bits().
 */
int uet_buf_write_skb(struct uet_buf *b, u32 off, const struct sk_buff *skb,
		      int skb_off, u32 len)
{
	while (len) {
		u32 poff = offset_in_page(off);
		u32 n = min_t(u32, len, PAGE_SIZE - poff);
		void *to = page_address(b->pages[off >> PAGE_SHIFT]) + poff;
		int err;

		err = skb_copy_bits(skb, skb_off, to, n);
		if (err)
			return err;
		skb_off += n;
		off += n;
		len -= n;
	}
	return 0;
}
