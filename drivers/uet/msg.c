// SPDX-License-Identifier: GPL-2.0
/*
 * uet: message buffers.  No allocation per packet: a message being sent
 * has all its pages from sendmsg() (one shorter than a page, a piece of
 * the sender's page fragment), and its packets take page references to
 * them; a message being received keeps its packets as they came, within
 * a budget, and gets a page for the others when the first of them with
 * bytes in it lands, copied in at their offset.
 */
#include <linux/gfp.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/rbtree.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <uet/kunit.h>
#include <uet/msg.h>

/**
 * uet_page_ring_alloc() - allocate an empty page ring
 * @gfp: allocation flags
 *
 * Return: the ring, or NULL when memory is short.
 */
struct uet_page_ring *uet_page_ring_alloc(gfp_t gfp)
{
	struct uet_page_ring *r = kvzalloc(sizeof(*r), gfp);

	if (r)
		spin_lock_init(&r->lock);
	return r;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_page_ring_alloc);

/**
 * uet_page_ring_free() - free a page ring and drop its pages
 * @r: the ring, or NULL; nobody else uses it any more
 */
void uet_page_ring_free(struct uet_page_ring *r)
{
	if (!r)
		return;
	uet_page_ring_drain(r);
	kvfree(r);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_page_ring_free);

/**
 * uet_page_ring_drain() - drop every page of a page ring
 * @r: the ring
 *
 * Context: process or softirq.
 * Return: pages dropped.
 */
u32 uet_page_ring_drain(struct uet_page_ring *r)
{
	u32 n;

	spin_lock_bh(&r->lock);
	n = r->n;
	while (r->n) {
		put_page(r->pages[r->head]);
		r->head = (r->head + 1) % UET_PAGE_RING_PAGES;
		r->n--;
	}
	spin_unlock_bh(&r->lock);
	return n;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_page_ring_drain);

/**
 * uet_page_ring_take() - take pages no one else holds, oldest first
 * @r: the ring
 * @pages: where to put them
 * @n: at most this many
 *
 * Stops at the first page someone still holds: pages come back in about
 * the order they went, so the ones behind it are most likely held too.
 *
 * Context: process or softirq.
 * Return: pages taken, each with the ring's reference, now the caller's.
 */
u32 uet_page_ring_take(struct uet_page_ring *r, struct page **pages, u32 n)
{
	u32 got = 0;

	spin_lock_bh(&r->lock);
	while (got < n && r->n && page_ref_count(r->pages[r->head]) == 1) {
		pages[got++] = r->pages[r->head];
		r->head = (r->head + 1) % UET_PAGE_RING_PAGES;
		r->n--;
	}
	spin_unlock_bh(&r->lock);
	return got;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_page_ring_take);

/**
 * uet_page_ring_put() - give pages to the ring
 * @r: the ring
 * @pages: the pages, a reference each, which the ring takes
 * @n: how many
 * @max: the most the ring may hold (at most UET_PAGE_RING_PAGES)
 *
 * A full ring drops its oldest page for each new one.
 *
 * Context: process or softirq.
 */
void uet_page_ring_put(struct uet_page_ring *r, struct page **pages, u32 n,
		       u32 max)
{
	u32 i;

	max = min_t(u32, max, UET_PAGE_RING_PAGES);
	spin_lock_bh(&r->lock);
	for (i = 0; i < n; i++) {
		while (r->n && r->n >= max) {
			put_page(r->pages[r->head]);
			r->head = (r->head + 1) % UET_PAGE_RING_PAGES;
			r->n--;
		}
		if (!max) {
			put_page(pages[i]);
			continue;
		}
		r->pages[(r->head + r->n) % UET_PAGE_RING_PAGES] = pages[i];
		r->n++;
	}
	spin_unlock_bh(&r->lock);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_page_ring_put);

/* Does a message of @len bytes take a piece of a shared page? */
static bool uet_buf_shared(u32 len)
{
	return len && len < PAGE_SIZE;
}

/* Take @b's bytes (b->len, less than a page) from @pfrag's page. */
static int uet_buf_shared_piece(struct uet_buf *b, struct page_frag *pfrag,
				gfp_t gfp)
{
	if (!skb_page_frag_refill(b->len, pfrag, gfp))
		return -ENOMEM;
	get_page(pfrag->page);
	b->pages[0] = pfrag->page;
	b->pgoff = pfrag->offset;
	b->npages = 1;
	pfrag->offset += b->len;
	return 0;
}

/**
 * uet_buf_embed_size() - room a message's buffer takes in the message
 * @len: bytes of the message
 *
 * A message shorter than a page, the most frequent kind, holds its buffer
 * (one page pointer) in its own allocation rather than in one of its own.
 *
 * Return: the room to allocate after the message for its buffer, or 0 when
 * the buffer is allocated apart (uet_buf_alloc()).
 */
size_t uet_buf_embed_size(u32 len)
{
	return uet_buf_shared(len) ?
	       struct_size((struct uet_buf *)NULL, pages, 1) : 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_buf_embed_size);

/**
 * uet_buf_init_shared() - set up a buffer held in its message
 * @b: uet_buf_embed_size() bytes after the message
 * @len: bytes, less than a page
 * @pfrag: the sender's page fragment (sk_page_frag(), its socket locked)
 * @gfp: GFP_KERNEL_ACCOUNT (sendmsg())
 *
 * As uet_buf_alloc() for such a message; uet_buf_free() leaves @b's
 * memory to its message.
 *
 * Return: 0, or -ENOMEM.
 */
int uet_buf_init_shared(struct uet_buf *b, u32 len, struct page_frag *pfrag,
			gfp_t gfp)
{
	b->len = len;
	b->npages = 0;
	b->pgoff = 0;
	b->embedded = 1;
	return uet_buf_shared_piece(b, pfrag, gfp);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_buf_init_shared);

/**
 * uet_buf_alloc() - allocate the buffer of a message to send
 * @len: bytes
 * @pfrag: the sender's page fragment (sk_page_frag(), its socket locked),
 *	or NULL for whole pages whatever @len
 * @r: the sender's page ring, or NULL
 * @reused: set to the pages taken from @r, or NULL
 * @gfp: GFP_KERNEL_ACCOUNT (sendmsg())
 *
 * A message shorter than a page takes a piece of @pfrag's page, as TCP's
 * segments do, rather than a page of its own zeroed, charged and freed
 * for a few bytes; a longer one takes pages of its own, first those of
 * @r that no packet holds any more: the sender's own earlier bytes, which
 * this message's overwrite wherever it sends any.
 *
 * Return: the buffer, or NULL when memory is short.
 */
struct uet_buf *uet_buf_alloc(u32 len, struct page_frag *pfrag,
			      struct uet_page_ring *r, u32 *reused, gfp_t gfp)
{
	u32 i, n = DIV_ROUND_UP(len, PAGE_SIZE);
	struct uet_buf *b;

	b = kvmalloc(struct_size(b, pages, n), gfp | __GFP_NOWARN);
	if (!b)
		return NULL;
	b->len = len;
	b->npages = 0;
	b->pgoff = 0;
	b->embedded = 0;
	if (pfrag && uet_buf_shared(len)) {
		if (uet_buf_shared_piece(b, pfrag, gfp)) {
			kvfree(b);
			return NULL;
		}
		return b;
	}
	if (r && !uet_buf_shared(len))
		b->npages = uet_page_ring_take(r, b->pages, n);
	if (reused)
		*reused = b->npages;
	for (i = b->npages; i < n; i++) {
		b->pages[i] = alloc_page(gfp | __GFP_NOWARN);
		if (!b->pages[i]) {
			uet_buf_free(b, NULL, 0);
			return NULL;
		}
		b->npages++;
	}
	return b;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_buf_alloc);

/**
 * uet_buf_free() - free a message buffer
 * @b: the buffer, or NULL; one held in its message gives its pages back
 *	and leaves its memory to the message
 * @r: the sender's page ring for its pages, or NULL to free them
 * @max: the most pages @r may hold
 *
 * Context: any but hard interrupt (kvfree() defers from softirq).
 */
void uet_buf_free(struct uet_buf *b, struct uet_page_ring *r, u32 max)
{
	u32 i;

	if (!b)
		return;
	if (r && !uet_buf_shared(b->len)) {
		uet_page_ring_put(r, b->pages, b->npages, max);
	} else {
		/* A shared page goes with its last piece. */
		for (i = 0; i < b->npages; i++)
			put_page(b->pages[i]);
	}
	if (!b->embedded)
		kvfree(b);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_buf_free);

/**
 * uet_buf_truesize() - memory a buffer of @len bytes takes
 * @len: message length
 *
 * A piece of a shared page counts as its bytes, cache-line aligned.
 *
 * Return: bytes to charge against a socket's buffer budget.
 */
size_t uet_buf_truesize(u32 len)
{
	u32 n = DIV_ROUND_UP(len, PAGE_SIZE);

	if (uet_buf_shared(len))
		return struct_size((struct uet_buf *)NULL, pages, 1) +
		       SKB_DATA_ALIGN(len);
	return struct_size((struct uet_buf *)NULL, pages, n) +
	       (size_t)n * PAGE_SIZE;
}

/*
 * Where byte @off of @b is: its page, the offset in it, and the bytes
 * from there that lie in the same page.
 */
static struct page *uet_buf_at(const struct uet_buf *b, u32 off, u32 *poff,
			       u32 *room)
{
	if (uet_buf_shared(b->len)) {
		*poff = b->pgoff + off;
		*room = b->len - off;
		return b->pages[0];
	}
	*poff = offset_in_page(off);
	*room = PAGE_SIZE - *poff;
	return b->pages[off >> PAGE_SHIFT];
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
	struct page *page;
	u32 off, poff, n;

	for (off = 0; off < b->len; off += n) {
		page = uet_buf_at(b, off, &poff, &n);
		n = min(n, b->len - off);
		if (copy_page_from_iter(page, poff, n, from) != n)
			return -EFAULT;
	}
	return 0;
}

/* An inline message's bytes are all in its one page's place. */
static_assert(UET_RBUF_INLINE_MAX <= PAGE_SIZE);

/* Is a received message of @len bytes held in its struct uet_rbuf? */
static bool uet_rbuf_inline(u32 len)
{
	return len && len <= UET_RBUF_INLINE_MAX;
}

/* Where an inline message's bytes are: past its one uet_rpage. */
static void *uet_rbuf_data(const struct uet_rbuf *b)
{
	return (void *)&b->pg[1];
}

/**
 * uet_rbuf_alloc() - allocate the page vector of a message being received
 * @len: bytes of the message
 * @gfp: allocation flags (GFP_ATOMIC | __GFP_ACCOUNT on receive)
 *
 * No page is allocated: uet_rbuf_populate() adds them as data lands.  A
 * message of at most UET_RBUF_INLINE_MAX bytes gets its bytes here.
 *
 * Return: the buffer, or NULL when memory is short.
 */
struct uet_rbuf *uet_rbuf_alloc(u32 len, gfp_t gfp)
{
	u32 n = DIV_ROUND_UP(len, PAGE_SIZE);
	struct uet_rbuf *b;
	size_t size;

	size = struct_size(b, pg, n) + (uet_rbuf_inline(len) ? len : 0);
	b = kvmalloc(size, gfp | __GFP_ZERO | __GFP_NOWARN);
	if (!b)
		return NULL;
	b->len = len;
	b->kept = RB_ROOT;
	return b;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_alloc);

/**
 * uet_rbuf_embed_size() - room a received message's buffer takes in the
 *	message
 * @len: bytes of the message
 *
 * A message held inline, most often one packet's, holds its buffer and
 * bytes in its own allocation rather than in one of their own.
 *
 * Return: the room to allocate after the message, or 0 when the buffer is
 * allocated apart (uet_rbuf_alloc()).
 */
size_t uet_rbuf_embed_size(u32 len)
{
	return uet_rbuf_inline(len) ?
	       struct_size((struct uet_rbuf *)NULL, pg, 1) + len : 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_embed_size);

/**
 * uet_rbuf_init() - set up a buffer held in its message
 * @b: uet_rbuf_embed_size() zeroed bytes after the message
 * @len: bytes of the message
 *
 * As uet_rbuf_alloc(); uet_rbuf_free() leaves @b's memory to its message.
 */
void uet_rbuf_init(struct uet_rbuf *b, u32 len)
{
	b->len = len;
	b->kept = RB_ROOT;
	b->embedded = 1;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_init);

/**
 * uet_rbuf_free() - free a message being received and its pages
 * @b: the buffer, or NULL; one held in its message leaves its memory to it
 *
 * Context: any.
 */
void uet_rbuf_free(struct uet_rbuf *b)
{
	struct sk_buff *skb, *next;
	u32 i;

	if (!b)
		return;
	rbtree_postorder_for_each_entry_safe(skb, next, &b->kept, rbnode)
		consume_skb(skb);
	for (i = 0; b->npages && i < DIV_ROUND_UP(b->len, PAGE_SIZE); i++) {
		if (b->pg[i].page) {
			__free_page(b->pg[i].page);
			b->npages--;
		}
	}
	if (!b->embedded)
		kvfree(b);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_free);

/**
 * uet_rbuf_size() - memory the page vector of a @len-byte message takes
 * @len: message length
 *
 * A message held inline has its bytes charged as the page they stand for
 * (uet_rbuf_populate()), not here.
 *
 * Return: bytes to charge before any page is.
 */
size_t uet_rbuf_size(u32 len)
{
	return struct_size((struct uet_rbuf *)NULL, pg,
			   DIV_ROUND_UP(len, PAGE_SIZE));
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_size);

/**
 * struct uet_rbuf_piece - the part of a byte range in one page
 * @i: the page
 * @poff: offset in the page
 * @n: bytes
 */
struct uet_rbuf_piece {
	u32 i;
	u32 poff;
	u32 n;
};

/* The next page's piece of [*@off, *@off + *@len), consumed; false at the end. */
static bool uet_rbuf_next(u32 *off, u32 *len, struct uet_rbuf_piece *p)
{
	if (!*len)
		return false;
	p->i = *off >> PAGE_SHIFT;
	p->poff = offset_in_page(*off);
	p->n = min_t(u32, *len, PAGE_SIZE - p->poff);
	*off += p->n;
	*len -= p->n;
	return true;
}

/* Does page @i of @b have memory for its bytes? */
static bool uet_rbuf_has(const struct uet_rbuf *b, u32 i)
{
	return uet_rbuf_inline(b->len) ? b->npages != 0 : !!b->pg[i].page;
}

/* Where the bytes of @p are in @b; uet_rbuf_has() said they have memory. */
static void *uet_rbuf_at(struct uet_rbuf *b, const struct uet_rbuf_piece *p)
{
	if (uet_rbuf_inline(b->len))
		return uet_rbuf_data(b) + p->poff;
	return page_address(b->pg[p->i].page) + p->poff;
}

/**
 * uet_rbuf_check() - may a packet write [@off, @off + @len)?
 * @b: the buffer
 * @off: offset in the message; @off + @len must not exceed b->len
 * @len: bytes
 *
 * Return: 0; -EINVAL when the range does not start on a granule or does
 * not end on one short of the message's end; -EEXIST when a packet wrote
 * part of it already.
 */
int uet_rbuf_check(const struct uet_rbuf *b, u32 off, u32 len)
{
	struct uet_rbuf_piece p;

	if (!IS_ALIGNED(off, UET_RX_GRAIN) ||
	    (!IS_ALIGNED(len, UET_RX_GRAIN) && off + len != b->len))
		return -EINVAL;
	while (uet_rbuf_next(&off, &len, &p)) {
		u32 g = p.poff / UET_RX_GRAIN;
		u32 end = g + DIV_ROUND_UP(p.n, UET_RX_GRAIN);

		if (find_next_bit(b->pg[p.i].got, end, g) < end)
			return -EEXIST;
	}
	return 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_check);

/**
 * uet_rbuf_missing() - pages of [@off, @off + @len) not yet allocated
 * @b: the buffer
 * @off: offset in the message
 * @len: bytes
 *
 * Return: how many pages uet_rbuf_populate() would allocate.
 */
u32 uet_rbuf_missing(const struct uet_rbuf *b, u32 off, u32 len)
{
	struct uet_rbuf_piece p;
	u32 missing = 0;

	while (uet_rbuf_next(&off, &len, &p))
		missing += !uet_rbuf_has(b, p.i);
	return missing;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_missing);

/**
 * uet_rbuf_populate() - allocate the pages of [@off, @off + @len)
 * @b: the buffer
 * @off: offset in the message
 * @len: bytes
 * @gfp: allocation flags
 *
 * A message held inline allocates nothing: its bytes count as one page
 * from its first write, so that rx-mem, SO_RCVBUF and the reservation
 * treat it as they treat a one-page message.
 *
 * Return: pages allocated; fewer than uet_rbuf_missing() said when memory
 * is short (those allocated stay, counted in b->npages).
 */
u32 uet_rbuf_populate(struct uet_rbuf *b, u32 off, u32 len, gfp_t gfp)
{
	struct uet_rbuf_piece p;
	u32 added = 0;

	if (uet_rbuf_inline(b->len)) {
		if (!len || b->npages)
			return 0;
		b->npages = 1;
		return 1;
	}
	while (uet_rbuf_next(&off, &len, &p)) {
		if (b->pg[p.i].page)
			continue;
		b->pg[p.i].page = alloc_page(gfp | __GFP_NOWARN);
		if (!b->pg[p.i].page)
			break;
		b->npages++;
		added++;
	}
	return added;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_populate);

/* Record [@off, @off + @len) as written. */
static void uet_rbuf_mark(struct uet_rbuf *b, u32 off, u32 len)
{
	struct uet_rbuf_piece p;

	b->got += len;
	while (uet_rbuf_next(&off, &len, &p))
		bitmap_set(b->pg[p.i].got, p.poff / UET_RX_GRAIN,
			   DIV_ROUND_UP(p.n, UET_RX_GRAIN));
}

/**
 * uet_rbuf_write_skb() - write a packet's payload into a message
 * @b: the buffer; uet_rbuf_check() passed and the pages are populated
 * @off: offset in the message
 * @skb: the packet
 * @skb_off: offset of the payload in @skb
 * @len: bytes
 *
 * Return: 0, or the error of skb_copy_bits() (nothing is marked written).
 */
int uet_rbuf_write_skb(struct uet_rbuf *b, u32 off, const struct sk_buff *skb,
		       int skb_off, u32 len)
{
	u32 o = off, l = len;
	struct uet_rbuf_piece p;
	int err;

	while (uet_rbuf_next(&o, &l, &p)) {
		err = skb_copy_bits(skb, skb_off, uet_rbuf_at(b, &p), p.n);
		if (err)
			return err;
		skb_off += p.n;
	}
	uet_rbuf_mark(b, off, len);
	return 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_write_skb);

/* Copy [@off, @off + @len) of @b's pages out; every byte was copied in. */
static int uet_rbuf_pages_to_iter(const struct uet_rbuf *b, u32 off, u32 len,
				  struct iov_iter *to)
{
	struct uet_rbuf_piece p;

	while (uet_rbuf_next(&off, &len, &p))
		if (copy_page_to_iter(b->pg[p.i].page, p.poff, p.n, to) != p.n)
			return -EFAULT;
	return 0;
}

static const struct uet_rbuf_cb *uet_rbuf_cb(const struct sk_buff *skb)
{
	return (const struct uet_rbuf_cb *)skb->cb;
}

/**
 * uet_rbuf_to_iter() - copy the first bytes of a complete message out
 * @b: the buffer, every byte written or kept
 * @len: bytes to copy, at most b->len
 * @to: destination
 *
 * The kept packets, in order, and the pages between them.
 *
 * Return: 0, or -EFAULT.
 */
int uet_rbuf_to_iter(const struct uet_rbuf *b, u32 len, struct iov_iter *to)
{
	const struct uet_rbuf_cb *cb;
	struct rb_node *n;
	u32 off = 0, k, r, c, so;
	int err;

	if (uet_rbuf_inline(b->len))
		return copy_to_iter(uet_rbuf_data(b), len, to) == len ?
		       0 : -EFAULT;
	for (n = rb_first(&b->kept); n && off < len; n = rb_next(n)) {
		cb = uet_rbuf_cb(rb_to_skb(n));
		if (cb->off >= len)
			break;
		err = uet_rbuf_pages_to_iter(b, off, cb->off - off, to);
		if (err)
			return err;
		k = min(cb->len, len - cb->off);
		if (!cb->seg) {
			err = skb_copy_datagram_iter(rb_to_skb(n), cb->skb_off,
						     to, k);
			if (err)
				return err;
		}
		/* A superpacket: each segment's payload, past its header. */
		for (r = cb->seg ? k : 0, so = cb->skb_off; r;
		     r -= c, so += cb->stride) {
			c = min_t(u32, r, cb->seg);
			err = skb_copy_datagram_iter(rb_to_skb(n), so, to, c);
			if (err)
				return err;
		}
		off = cb->off + k;
	}
	return uet_rbuf_pages_to_iter(b, off, len - off, to);
}

/**
 * uet_rbuf_keep_budget() - how much a message may keep of its packets
 * @b: the buffer, nothing written or kept yet
 * @off: offset of the first packet's bytes in the message
 * @len: bytes the first packet carries
 * @truesize: the first packet's truesize
 * @over: set to what the socket must reserve against SO_RCVBUF beyond
 *	the message's pages
 *
 * A packet that carries the whole message may be kept whatever comes
 * after it: no copy can follow, so the budget is the packet, and only
 * what it takes beyond the message's pages is reserved.  Otherwise the
 * pages stay reserved for the packets that will be copied, and the budget
 * comes on top: as many packets as the first, each its truesize, within
 * UET_RBUF_KEEP_RATIO times the pages.  A message first heard of by its
 * last packet, shorter than the others, keeps nothing.  So every message
 * reserves at its first packet all it can ever hold, and partial messages
 * cannot wait on each other for room.
 *
 * Return: the budget (struct uet_rbuf.keep_max); 0 when nothing is kept.
 */
u32 uet_rbuf_keep_budget(const struct uet_rbuf *b, u32 off, u32 len,
			 u32 truesize, u32 *over)
{
	u32 pages = round_up(b->len, PAGE_SIZE);
	u64 want;

	*over = 0;
	if (uet_rbuf_inline(b->len) || !len ||
	    truesize > round_up(len, PAGE_SIZE) + UET_RBUF_KEEP_SLACK)
		return 0;
	if (len == b->len) {
		*over = truesize > pages ? truesize - pages : 0;
		return max(truesize, pages);
	}
	if (off + len == b->len)
		return 0;
	/* One packet more: truesizes differ a little. */
	want = (u64)(DIV_ROUND_UP(b->len, len) + 1) * truesize;
	*over = min_t(u64, want, (u64)UET_RBUF_KEEP_RATIO * pages);
	return *over;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_keep_budget);

/**
 * uet_rbuf_may_keep() - may a packet be kept rather than copied?
 * @b: the buffer, its budget set (uet_rbuf_keep_budget())
 * @len: bytes the packet carries
 * @truesize: the packet's truesize
 *
 * Return: true when the packet carries bytes, takes at most
 * UET_RBUF_KEEP_SLACK more than the pages a copy of it would, and fits in
 * what is left of the budget.
 */
bool uet_rbuf_may_keep(const struct uet_rbuf *b, u32 len, u32 truesize)
{
	return len &&
	       truesize <= round_up(len, PAGE_SIZE) + UET_RBUF_KEEP_SLACK &&
	       (u64)b->kept_size + truesize <= b->keep_max;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_may_keep);

/* Link @skb into @b's tree by its offset, after the last in O(1). */
static void uet_rbuf_link(struct uet_rbuf *b, struct sk_buff *skb)
{
	struct rb_node **p = &b->kept.rb_node, *parent = NULL;
	u32 off = uet_rbuf_cb(skb)->off;

	if (b->kept_last && off > uet_rbuf_cb(b->kept_last)->off) {
		parent = &b->kept_last->rbnode;
		p = &parent->rb_right;
	} else {
		while (*p) {
			parent = *p;
			if (off < uet_rbuf_cb(rb_to_skb(parent))->off)
				p = &parent->rb_left;
			else
				p = &parent->rb_right;
		}
	}
	rb_link_node(&skb->rbnode, parent, p);
	rb_insert_color(&skb->rbnode, &b->kept);
	if (!b->kept_last || off > uet_rbuf_cb(b->kept_last)->off)
		b->kept_last = skb;
}

/**
 * uet_rbuf_keep_pages() - what keeping one more packet adds to rx-mem
 * @b: the buffer
 * @truesize: the packet's truesize
 *
 * Return: the pages the kept packets' truesize sum would round up to
 * with the packet, beyond those it rounds up to now.
 */
u32 uet_rbuf_keep_pages(const struct uet_rbuf *b, u32 truesize)
{
	return DIV_ROUND_UP(b->kept_size + truesize, PAGE_SIZE) -
	       DIV_ROUND_UP(b->kept_size, PAGE_SIZE);
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_keep_pages);

/**
 * uet_rbuf_keep_skb() - keep a packet as its bytes of a message
 * @b: the buffer; uet_rbuf_check() and uet_rbuf_may_keep() passed
 * @skb: the packet, a reference the buffer now owns; its cb and rbnode
 *	are the buffer's
 * @seg: 0, or the payload bytes of each segment of a superpacket
 * @stride: with @seg, bytes from one segment's payload to the next
 * @skb_off: where its bytes start in @skb
 * @off: their offset in the message
 * @len: bytes
 */
void uet_rbuf_keep_skb(struct uet_rbuf *b, struct sk_buff *skb, u16 seg,
		       u16 stride, u32 skb_off, u32 off, u32 len)
{
	struct uet_rbuf_cb *cb = (struct uet_rbuf_cb *)skb->cb;

	BUILD_BUG_ON(sizeof(*cb) > sizeof(skb->cb));
	cb->off = off;
	cb->len = len;
	cb->skb_off = skb_off;
	cb->seg = seg;
	cb->stride = stride;
	uet_rbuf_link(b, skb);
	uet_rbuf_mark(b, off, len);
	b->kept_size += skb->truesize;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_rbuf_keep_skb);

/**
 * uet_buf_frags() - pages of a buffer a range of bytes takes
 * @off: offset in the message
 * @len: bytes
 *
 * Return: the page fragments uet_buf_skb_frags() adds for the range.
 */
u32 uet_buf_frags(u32 off, u32 len)
{
	if (!len)
		return 0;
	return ((off + len - 1) >> PAGE_SHIFT) - (off >> PAGE_SHIFT) + 1;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_buf_frags);

/**
 * uet_buf_skb_frags() - attach a range of a buffer to a packet, no copy
 * @b: the buffer, written in full and no longer changed (a sent message)
 * @off: offset in the message
 * @len: bytes; @off + @len must not exceed b->len
 * @skb: the packet, its headers in the linear part; the range follows
 *	its last byte
 *
 * Appends one page fragment per page the range touches, each holding a
 * page reference of its own: the packet keeps the bytes, in flight or
 * queued anywhere, after the message is freed (acknowledged, given up,
 * its socket or PDC closed).  The pages are not marked SKBFL_SHARED_FRAG:
 * nobody writes them after sendmsg(), so the stack may checksum them
 * where they are.
 *
 * Return: 0, or -EMSGSIZE when the packet has no room for the fragments
 * (it is then unchanged).
 */
int uet_buf_skb_frags(const struct uet_buf *b, u32 off, u32 len,
		      struct sk_buff *skb)
{
	int i = skb_shinfo(skb)->nr_frags;

	if (i + uet_buf_frags(off, len) > MAX_SKB_FRAGS)
		return -EMSGSIZE;
	while (len) {
		struct page *page;
		u32 poff, n;

		page = uet_buf_at(b, off, &poff, &n);
		n = min(n, len);
		get_page(page);
		skb_fill_page_desc(skb, i++, page, poff, n);
		skb->len += n;
		skb->data_len += n;
		skb->truesize += n;
		off += n;
		len -= n;
	}
	return 0;
}
EXPORT_SYMBOL_IF_UET_KUNIT(uet_buf_skb_frags);
