/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: UET 1.0 headers as they are on the wire: the PDS prologue, RUD
 * request, ACK, ACK_CC, NACK and CTRL headers, and the SES standard
 * request that follows a RUD request.  All fields are big-endian.
 *
 * A data packet is IP | UDP (dport 4793, sport = entropy value) |
 * struct uet_pds_req | struct uet_ses_std | payload.
 */
#ifndef _UET_WIRE_H
#define _UET_WIRE_H

#include <linux/bitfield.h>
#include <linux/build_bug.h>
#include <linux/types.h>
#include <asm/byteorder.h>

/* PDS types: prologue bits 15..11. */
#define UET_PDS_RUD_REQ		0x02
#define UET_PDS_ROD_REQ		0x03
#define UET_PDS_RUDI_REQ	0x04
#define UET_PDS_RUDI_RESP	0x05
#define UET_PDS_UUD_REQ		0x06
#define UET_PDS_ACK		0x07
#define UET_PDS_ACK_CC		0x08
#define UET_PDS_ACK_CCX		0x09
#define UET_PDS_NACK		0x0a
#define UET_PDS_CTRL		0x0b
#define UET_PDS_NACK_CCX	0x0c
#define UET_PDS_RUD_CC_REQ	0x0d
#define UET_PDS_ROD_CC_REQ	0x0e

#define UET_PRLG_TYPE		GENMASK(15, 11)
#define UET_PRLG_NEXT		GENMASK(10, 7)	/* next_hdr, or ctl_type */
#define UET_PRLG_FLAGS		GENMASK(6, 0)

/* next_hdr of a request: what follows the PDS header. */
#define UET_NH_NONE		0x0
#define UET_NH_REQ_STD		0x3

/* Request flags. */
#define UET_REQ_RETX		0x10
#define UET_REQ_AR		0x08	/* ACK requested */
#define UET_REQ_SYN		0x04	/* PDC being established */

/* ACK flags. */
#define UET_ACK_M		0x20	/* the packet acked was ECN-marked */
#define UET_ACK_RETX		0x10	/* the packet acked was a retransmission */
#define UET_ACK_P		0x08	/* answers a probe */

/*
 * ACK_CC cc_type (cc_type_flags bits 7..4) and its NSCC CC state.  The
 * layout of the 64-bit state follows UET 1.0 as summarised in
 * Documentation/cc.rst, most significant field first: Service_Time (16
 * bits, 128 ns units), RC (1), Rcv_Cwnd_Pend (7), Rcvd_Bytes (24 bits,
 * 256-byte units), OOO_Count (16).  uet fills Rcvd_Bytes, and
 * Service_Time in a probe's answer.  cc_type 0 is NSCC and 1 credit
 * (RCCC), as the public UET 1.0 header definitions have them (xdp2's
 * uet/pds.h); uet sends only NSCC's, in every ACK_CC.
 */
#define UET_ACK_CC_TYPE		GENMASK(7, 4)
#define UET_ACK_CC_NSCC		0x0
#define UET_ACK_CC_CREDIT	0x1
#define UET_NSCC_SERVICE_TIME	GENMASK_ULL(63, 48)
#define UET_NSCC_SERVICE_NS	128	/* Service_Time's unit */
#define UET_NSCC_RC		BIT_ULL(47)
#define UET_NSCC_RCV_CWND_PEND	GENMASK_ULL(46, 40)
#define UET_NSCC_RCVD_BYTES	GENMASK_ULL(39, 16)
#define UET_NSCC_OOO_COUNT	GENMASK_ULL(15, 0)

/* NACK flags. */
#define UET_NACK_M		0x20
#define UET_NACK_RETX		0x10

/* CTRL types (prologue bits 10..7) and flags. */
#define UET_CTRL_NOP		0x0
#define UET_CTRL_ACK_REQ	0x1
#define UET_CTRL_CLOSE		0x4
#define UET_CTRL_PROBE		0x6
#define UET_CTRL_CREDIT		0x7
#define UET_CTRL_CREDIT_REQ	0x8
#define UET_CTRL_RETX		0x10
#define UET_CTRL_AR		0x08

/* NACK codes that uet sends or acts on. */
#define UET_NACK_TRIMMED		0x01
#define UET_NACK_TRIMMED_LASTHOP	0x02
#define UET_NACK_NO_PKT_BUF		0x07
#define UET_NACK_NO_RESOURCE		0x0a
#define UET_NACK_PSN_OOR_WINDOW		0x0b
/* Fatal: the payload is a UET_RC_*; the sender fills the PSN with a NOP. */
#define UET_NACK_FATAL			0xff

/* SES return codes carried by a fatal NACK. */
#define UET_RC_BAD_PID		0x1a	/* no endpoint bound */
#define UET_RC_BAD_JOB_ID	0x1b	/* job differs from the PDC's */
#define UET_RC_TOO_LONG		0x22	/* message larger than accepted */

/* SYN requests carry pdc_info | psn_offset in place of the DPDCID. */
#define UET_SYN_PDC_INFO	GENMASK(15, 12)
#define UET_SYN_PSN_OFFSET	GENMASK(11, 0)

/**
 * struct uet_pds_req - RUD/ROD request header
 * @prologue: type, next_hdr, flags
 * @clear_psn_off: clear PSN = @psn + this (signed); uet sends 0
 * @psn: packet sequence number
 * @spdcid: sender's PDC id
 * @dpdcid: receiver's PDC id, or with SYN pdc_info and the PSN's offset
 *	from the PDC's start PSN
 */
struct uet_pds_req {
	__be16 prologue;
	__be16 clear_psn_off;
	__be32 psn;
	__be16 spdcid;
	__be16 dpdcid;
};

/**
 * struct uet_pds_ack - ACK header
 * @prologue: type, flags
 * @ack_psn_off: PSN of the packet that drew this ACK = @cack_psn + this
 *	(signed); with UET_ACK_P, the probe's opaque value
 * @cack_psn: cumulative ACK: every PSN up to this one has been received
 * @spdcid: sender's PDC id
 * @dpdcid: receiver's PDC id
 */
struct uet_pds_ack {
	__be16 prologue;
	__be16 ack_psn_off;
	__be32 cack_psn;
	__be16 spdcid;
	__be16 dpdcid;
};

/**
 * struct uet_pds_ack_cc - ACK with the congestion-control extension
 * @ack: the ACK fields
 * @cc_type_flags: cc_type (bits 7..4, UET_ACK_CC_TYPE) and flags
 * @mpr: maximum PSN range; uet sends its window
 * @sack_psn_off: first PSN of @sack_bitmap = cack_psn + this (signed)
 * @sack_bitmap: bit i (value 1 << i) set: PSN first + i received.  A
 *	clear bit says nothing: bitmaps are ORed by the sender.
 * @cc_state: congestion-control state: with UET_ACK_CC_NSCC, NSCC's
 *	(UET_NSCC_*); in a probe's answer (the ACK's P flag) its
 *	Service_Time is the probe's
 */
struct uet_pds_ack_cc {
	struct uet_pds_ack ack;
	u8 cc_type_flags;
	u8 mpr;
	__be16 sack_psn_off;
	__be64 sack_bitmap;
	__be64 cc_state;
} __packed;

/**
 * struct uet_pds_nack - NACK header
 * @prologue: type, flags
 * @code: UET_NACK_*
 * @vendor: vendor code; uet sends 0
 * @psn: PSN of the packet refused
 * @spdcid: sender's PDC id (0 when it has none yet)
 * @dpdcid: receiver's PDC id
 * @payload: code-specific; the UET_RC_* of a UET_NACK_FATAL
 */
struct uet_pds_nack {
	__be16 prologue;
	u8 code;
	u8 vendor;
	__be32 psn;
	__be16 spdcid;
	__be16 dpdcid;
	__be32 payload;
};

/**
 * struct uet_pds_ctrl - CTRL header
 * @prologue: type, ctl_type, flags
 * @opaque: reserved, or the probe's opaque value
 * @psn: PSN (unused by CLOSE and PROBE)
 * @spdcid: sender's PDC id
 * @dpdcid: receiver's PDC id
 * @payload: ctl_type-specific
 */
struct uet_pds_ctrl {
	__be16 prologue;
	__be16 opaque;
	__be32 psn;
	__be16 spdcid;
	__be16 dpdcid;
	__be32 payload;
};

/* SES opcode and flags. */
#define UET_SES_OPCODE		GENMASK(5, 0)
#define UET_SES_SEND		0x05
#define UET_SES_VERSION		GENMASK(7, 6)
#define UET_SES_SOM		0x01
#define UET_SES_EOM		0x02
#define UET_SES_HD		0x04
#define UET_SES_JOB		GENMASK(23, 0)
#define UET_SES_PID		GENMASK(11, 0)
/* hdr_data of a packet without SOM: payload length and message offset */
#define UET_SES_PAYLOAD_LEN	GENMASK_ULL(45, 32)
#define UET_SES_MSG_OFF		GENMASK_ULL(31, 0)
#define UET_SES_PAYLOAD_MAX	16383

/**
 * struct uet_ses_std - SES standard request header
 * @opcode: opcode (bits 5..0)
 * @ver_flags: version (bits 7..6) and UET_SES_SOM/EOM/HD...
 * @msg_id: message id, per PDC
 * @ri_gen_job: resource-index generation (bits 31..24) and job id
 * @pid_on_fep: destination endpoint (bits 11..0)
 * @res_index: resource index (bits 11..0); uet sends 0
 * @buf_off: offset in the target buffer; uet sends 0
 * @initiator: source endpoint
 * @match_bits: match bits or memory key; uet sends 0
 * @hdr_data: with SOM, header data (uet sends 0, HD clear); without
 *	SOM, the payload length and the payload's offset in the message
 * @req_len: length of the whole message
 */
struct uet_ses_std {
	u8 opcode;
	u8 ver_flags;
	__be16 msg_id;
	__be32 ri_gen_job;
	__be16 pid_on_fep;
	__be16 res_index;
	__be64 buf_off;
	__be32 initiator;
	__be64 match_bits;
	__be64 hdr_data;
	__be32 req_len;
} __packed;

static_assert(sizeof(struct uet_pds_req) == 12);
static_assert(sizeof(struct uet_pds_ack) == 12);
static_assert(sizeof(struct uet_pds_ack_cc) == 32);
static_assert(sizeof(struct uet_pds_nack) == 16);
static_assert(sizeof(struct uet_pds_ctrl) == 16);
static_assert(sizeof(struct uet_ses_std) == 44);

/* Bytes of UET headers in front of a data packet's payload. */
#define UET_DATA_HDR_LEN	(sizeof(struct uet_pds_req) + \
				 sizeof(struct uet_ses_std))

/*
 * What NSCC counts of a data packet: its UDP length plus 40 (an IPv6
 * header, or IPv4's with room), the same at both ends whatever the family.
 */
#define UET_CC_PKT_OVERHEAD	(UET_DATA_HDR_LEN + 8 + 40)

/**
 * uet_cc_wire_bytes() - bytes a data packet counts for in an NSCC window
 * @payload: its payload bytes
 *
 * Return: @payload plus the UET, UDP and a nominal IP header.
 */
static inline u32 uet_cc_wire_bytes(u32 payload)
{
	return payload + UET_CC_PKT_OVERHEAD;
}

/**
 * uet_prologue() - build a PDS prologue
 * @type: UET_PDS_*
 * @next: next header, or ctl_type of a CTRL
 * @flags: type-specific flags
 *
 * Return: the prologue in wire order.
 */
static inline __be16 uet_prologue(u8 type, u8 next, u8 flags)
{
	return cpu_to_be16(FIELD_PREP(UET_PRLG_TYPE, type) |
			   FIELD_PREP(UET_PRLG_NEXT, next) |
			   FIELD_PREP(UET_PRLG_FLAGS, flags));
}

/**
 * uet_prologue_type() - PDS type of a prologue
 * @p: prologue in wire order
 *
 * Return: the UET_PDS_* type.
 */
static inline u8 uet_prologue_type(__be16 p)
{
	return FIELD_GET(UET_PRLG_TYPE, be16_to_cpu(p));
}

/**
 * uet_prologue_next() - next header (or ctl_type) of a prologue
 * @p: prologue in wire order
 *
 * Return: the next_hdr field.
 */
static inline u8 uet_prologue_next(__be16 p)
{
	return FIELD_GET(UET_PRLG_NEXT, be16_to_cpu(p));
}

/**
 * uet_prologue_flags() - flags of a prologue
 * @p: prologue in wire order
 *
 * Return: the seven flag bits.
 */
static inline u8 uet_prologue_flags(__be16 p)
{
	return FIELD_GET(UET_PRLG_FLAGS, be16_to_cpu(p));
}

#endif /* _UET_WIRE_H */
