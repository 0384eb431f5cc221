package main

// Rounds 47 and 48 (forms52b): losses of new cases under a form that are limits of the form.

// limitFlattenedQuotedWrappedQP: 4405 is a mail's quoted-printable source whose kernel
// lines are quoted ('> ') and were wrapped by the replying client, so the SLUB header's gfp
// sits on a quoted line of its own ('> gfp=3D0x800(GFP_NOWAIT)'). Joined onto one line, the
// records split again at their stamps, but the header now reads "on node -1, > gfp=3D0x800"
// (the quote marker inside the record, the '=3D' still encoded since the mail's line
// structure that decoding needs is gone), and the header's node and gfp cannot be read.
const limitFlattenedQuotedWrappedQP = "quoted-printable mail source whose kernel lines are mail-quoted ('> ') and wrapped by the replying client: joined onto one line, the wrapped piece's quote marker and its undecoded '=3D' land inside the stamped record ('on node -1, > gfp=3D0x800(GFP_NOWAIT)'), so the SLUB header's gfp cannot be read; a page's text extraction shows a mail decoded, never its encoded quoted source"

func init() {
	const c4405 = "4405-lkml-2024-5.13-nas-slub-skbuff-head-cache-gfp-nowait-once-then-nvme-timeout-4-days-later-qp"
	// (double-spaced, gutter-bar and gutter-tab of 4405 keep the verdict since round 51:
	// limits removed by fix56d.)
	formsKnownLimits["flattened "+c4405] = limitFlattenedQuotedWrappedQP

	// (wrap-log-80 of 4347 keeps the verdict since round 51: limit removed by fix56d.)

	// 4337: a watch of 'ethtool -S eth2 | grep rx' printing rates ('rx_nodesc_drop_cnt:
	// 451.3k/s', then rx-N.rx_packets rows) in a fenced block; flattened with the blog's prose
	// the counter rows are one line of 'name: rate' pairs among sentences, which the reader
	// reports as "more numbers than a sentence states" (ethtool -S is named in
	// limitFlattenedBlock).
	formsKnownLimits["flattened 4337-cloudflare-blog-2015-sfc-solarflare-ethtool-S-rx-nodesc-drop-cnt-451.3k-per-s-one-rx-queue-cpu-bound"] = limitFlattenedBlock
	// 4422: /proc/user_beancounters' aligned columns (held, maxheld, barrier, limit,
	// failcnt); on one line privvmpages' five figures are no longer paired with the header's
	// column names (a /proc table, limitFlattenedBlock).
	formsKnownLimits["flattened 4422-adyromantika-openvz-user-beancounters-privvmpages-failcnt-40-held-1611-maxheld-62436-cannot-fork"] = limitFlattenedBlock
}
