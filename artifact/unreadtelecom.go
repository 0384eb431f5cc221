package artifact

import "strings"

// Telecom and mobile-core software's own lines (pre-round 23, h23c): the radio stacks
// (srsRAN, OpenAirInterface) count the radio's real-time failures, the cores (Open5GS,
// free5GC) and the voice servers (Asterisk, FreeSWITCH, Kamailio) log their own pools and
// queues running out. None of them is the kernel's page allocator, an OOM kill or a socket
// buffer counter: a radio overflow is the host not taking the samples in time (the radio's
// or UHD's own FIFO), a pool is sized by the program's configuration at start. Each line is
// listed as unread with what it proves, its figures kept (programFigures), so a paste of
// them holds evidence (no exit 3) and raises no kernel finding; the kernel's own counters
// pasted beside them (netstat -su, /proc/meminfo, the kernel's log) reach their rules.
//
// Gated: telecomOwnLine runs on lines already classified as prose (doc.prose) and on the
// syslog lines of the programs' tags (isTelecomTag, a switch); each class is a fixed needle
// from the program's format string (strings.Index), a second fixed part when one needle is
// a common word.

const telecomRadioWhy = ": the radio's own real-time counts (UHD's async and receive metadata: an overflow is the host not reading the samples in time, so the radio's or UHD's FIFO overran; an underflow or a late is the transmit path not sending in time): CPU scheduling and the program's threads, counted by the program, not a kernel counter; `netstat -su` (receive buffer errors) and `ethtool -S` (rx_missed_errors, rx_fifo_errors) beside them say whether the host's socket buffer or NIC dropped packets; headroom has no rule for a radio's counts"

const telecomFSMemWhy = "FreeSWITCH could not allocate from its memory pool (switch_log_printf: \"Memory Error!\", an APR pool allocation of its own that failed)" + telecomPoolWhy

const telecomPoolWhy = ": its own memory pool, sized by its configuration at start, had no free element: the program's memory, not the kernel's page allocator (no page allocation failure, no OOM kill) nor a socket buffer counter; headroom has no rule for a program's own pool"

// telecomClasses: each message's needle (from the program's format string), an optional
// second fixed part after it, and what the line proves. oom: the line is the program's own
// out-of-memory (its "memory" is then no statement about the host: programOOMNamed).
var telecomClasses = []struct {
	needle, needle2, why string
	oom                  bool
}{
	// srsRAN Project apps/units/flexible_o_du/split_helpers/metrics/
	// flexible_o_du_metrics_consumers.cpp print_radio_metrics: "Late: {}; Underflow: {};
	// Overflow: {};" on stdout when a count since the last print is not zero.
	{"; Underflow: ", "; Overflow: ", "srsRAN Project's gNB radio metrics (\"Late: N; Underflow: N; Overflow: N;\")" + telecomRadioWhy, false},
	// srsRAN 4G srsenb/srsue metrics_stdout.cc: "RF status: O={}, U={}, L={}".
	{"RF status: O=", ", U=", "srsRAN 4G's (srsENB/srsUE) radio status line (\"RF status: O=N, U=N, L=N\")" + telecomRadioWhy, false},
	// srsRAN Project lib/ru/sdr/ru_radio_event_handler.h: logger.warning("Real-time failure
	// in RF: {}", late|underflow|overflow); lower_phy_error_logger.h "Real-time failure in
	// lower PHY: ..."; fapi_to_phy "Real-time failure in FAPI: ...".
	{"Real-time failure in RF: ", "", "srsRAN Project's log of a radio real-time event (ru_radio_event_handler.h)" + telecomRadioWhy, false},
	{"Real-time failure in lower PHY: ", "", "srsRAN Project's lower PHY: a request arrived after its slot's samples were due (lower_phy_error_logger.h): the upper PHY or the scheduler ran late (CPU, isolation, threads), not memory nor a kernel counter; headroom has no rule for a radio stack's timing", false},
	{"Real-time failure in FAPI: ", "", "srsRAN Project's FAPI adaptor: a slot's message arrived late or the UL processor was busy: the program's own timing (CPU, threads), not memory nor a kernel counter; headroom has no rule for a radio stack's timing", false},
	// srsRAN 4G lib/src/radio/radio.cc handle_rf_msg: logger.info("Overflow"),
	// ("Underflow"), ("Late (detected in %s)", "rx call" | "asynchronous thread"),
	// logger.error("Fatal radio error occured."), under srslog's "[RF     ] [I] ".
	{"Late (detected in ", "", "srsRAN 4G's radio log (radio.cc handle_rf_msg: \"Late (detected in rx call|asynchronous thread)\")" + telecomRadioWhy, false},
	{"Fatal radio error occured", "", "srsRAN 4G's radio: the RF driver returned a receive error (radio.cc handle_rf_msg, SRSRAN_RF_ERROR_RX) and the PHY stops: the device or its driver, not memory nor a kernel counter; headroom has no rule for a radio's errors", false},
	// OpenAirInterface radio/USRP/usrp_lib.cpp trx_usrp_read: LOG_E(HW, "[recv] received %d
	// samples out of %d") and LOG_E(HW, "%s", rx_md.to_pp_string(true)), UHD's
	// rx_metadata_t::strerror: "ERROR_CODE_OVERFLOW (Overflow)", "ERROR_CODE_LATE_COMMAND",
	// "ERROR_CODE_TIMEOUT"; executables/nr-ru.c rx_rf: "rx_rf: Asked for %d samples, got %d
	// from USRP", "problem receiving samples".
	{"[recv] received ", " samples out of ", "OpenAirInterface's USRP driver read fewer samples than asked (usrp_lib.cpp trx_usrp_read)" + telecomRadioWhy, false},
	{"rx_rf: Asked for ", " samples, got ", "OpenAirInterface's RU read fewer samples than asked (nr-ru.c rx_rf)" + telecomRadioWhy, false},
	{"ERROR_CODE_OVERFLOW", "", "UHD's receive metadata error (rx_metadata_t::strerror: ERROR_CODE_OVERFLOW, \"(Out of sequence error)\" when packets were lost between the radio and the host), as OpenAirInterface logs it" + telecomRadioWhy, false},
	{"ERROR_CODE_LATE_COMMAND", "", "UHD's receive metadata error (rx_metadata_t::strerror: a stream command's time had passed)" + telecomRadioWhy, false},
	// Open5GS lib/core/ogs-pkbuf.c: ogs_error("ogs_pkbuf_alloc() failed [size=%d]"),
	// cluster_alloc ogs_error("ogs_pool_alloc() failed") (older ogs_fatal("No
	// OGS_CLUSTER_%d_SIZE")); every pool of lib/ and src/ logs "ogs_pool_alloc() failed"
	// (ogs-pool.h, sized by the configuration's max.ue/pool sections at start).
	{"ogs_pkbuf_alloc() failed", "", "Open5GS's packet buffer pool (ogs-pkbuf.c: \"ogs_pkbuf_alloc() failed\", the clusters of each size preallocated at start from the configuration's pool/max sections)" + telecomPoolWhy, true},
	{"ogs_pool_alloc() failed", "", "Open5GS's object pool (ogs-pool.h: \"ogs_pool_alloc() failed\", preallocated at start from the configuration's max.ue and pool sections)" + telecomPoolWhy, true},
	{"ogs_pool_id_calloc() failed", "", "Open5GS's object pool (ogs-pool.h: \"ogs_pool_id_calloc() failed\", preallocated at start from the configuration's max.ue and pool sections)" + telecomPoolWhy, true},
	{"No OGS_CLUSTER_", "_SIZE", "Open5GS's packet buffer clusters of one size ran out (older ogs-pkbuf.c: ogs_fatal(\"No OGS_CLUSTER_N_SIZE\"))" + telecomPoolWhy, true},
	// free5GC's C UPF (src/upf/lib/utlt/src/utlt_buff.c BufblkOptionSelector):
	// UTLT_Assert(..., "bufPool"#N" is empty"), BufblkAlloc "The pool of Buffer is empty":
	// fixed pools of MAX_NUM_OF_BUFBLK_POOL_N blocks compiled in.
	{"bufPool", " is empty", "free5GC's UPF buffer pool (utlt_buff.c: \"bufPoolN is empty\", a fixed number of blocks of each size compiled in)" + telecomPoolWhy, true},
	{"The pool of Buffer is empty", "", "free5GC's UPF buffer block pool (utlt_buff.c BufblkAlloc: \"The pool of Buffer is empty\")" + telecomPoolWhy, true},
	// Kamailio src/core/mem/mem.h SHM_MEM_ERROR / PKG_MEM_ERROR ("could not allocate shared
	// memory from shm pool", "could not allocate private memory from pkg pool"), modules'
	// LM_ERR("no more shm memory") / ("no more pkg memory"), q_malloc.c/f_malloc.c "Free
	// fragment not found!": its shared pool (-m MB) and each process's private pool (-M MB)
	// are fixed at start.
	{"no more shm memory", "", "Kamailio's shared memory pool (\"no more shm memory\": the pool of -m/shm_mem_size MB fixed at start)" + telecomPoolWhy, true},
	{"no more share mem", "", "Kamailio's shared memory pool (\"no more share mem\": the pool of -m/shm_mem_size MB fixed at start)" + telecomPoolWhy, true},
	{"no more pkg memory", "", "Kamailio's per-process private memory pool (\"no more pkg memory\": the pool of -M/pkg_mem_size MB fixed at start)" + telecomPoolWhy, true},
	{"could not allocate shared memory from shm pool", "", "Kamailio's shared memory pool (mem.h SHM_MEM_ERROR, the pool of -m MB fixed at start)" + telecomPoolWhy, true},
	{"could not allocate private memory from pkg pool", "", "Kamailio's per-process private memory pool (mem.h PKG_MEM_ERROR, the pool of -M MB fixed at start)" + telecomPoolWhy, true},
	{"_malloc(", "Free fragment not found!", "Kamailio's allocator found no free fragment in its pool (q_malloc.c/f_malloc.c: \"Free fragment not found!\", the shm pool of -m MB or the pkg pool of -M MB)" + telecomPoolWhy, true},
	// Asterisk main/taskprocessor.c taskprocessor_push: "Taskprocessor '%s' queue reached
	// %ld scheduled tasks (high water mark: %ld)%s." (older "The '%s' task processor queue
	// reached %ld scheduled tasks%s.").
	{"queue reached ", " scheduled tasks", "Asterisk's taskprocessor queue passed its high water mark (taskprocessor.c taskprocessor_push): tasks waiting inside Asterisk because its threads did not keep up (a slow or blocked consumer, CPU): a queue inside the program, not memory nor a kernel socket or backlog counter; headroom has no rule for a program's own queue", false},
	// Asterisk apps/app_externalivr.c, res/res_agi.c: ast_log("Failed to fork(): %s",
	// strerror(errno)).
	{"Failed to fork(): Cannot allocate memory", "", "Asterisk could not fork a child (res_agi.c/app_externalivr.c: \"Failed to fork(): Cannot allocate memory\"): fork's ENOMEM is the kernel refusing to commit a copy of the process's private writable memory (mm/util.c __vm_enough_memory: vm.overcommit_memory=2 past CommitLimit, or mode 0 refusing one request larger than RAM and swap) or a short kernel allocation; overcommit-exposed judges the commit from /proc/meminfo's Committed_AS and CommitLimit, which this line does not give; no OOM kill", true},
	// FreeSWITCH: switch_log_printf(SWITCH_LOG_CRIT, "Memory Error!") and mod_conference's
	// "Memory Error Creating Audio Buffer!", under its "[CRIT] file.c:N " form.
	{"[CRIT] ", " Memory Error", telecomFSMemWhy, true},
	{"[ERR] ", " Memory Error", telecomFSMemWhy, true},
	{"Memory Error Creating Audio Buffer", "", "FreeSWITCH's conference could not allocate a member's audio buffer (mod_conference: \"Memory Error Creating Audio Buffer!\")" + telecomPoolWhy, true},
	{"Hey where is my memory pool?", "", "FreeSWITCH: a session or module had no memory pool assigned (\"Hey where is my memory pool?\"): a program error in its own pool handling, not the host's memory; headroom has no rule for it", false},
}

// telecomOwnLine says why t is one of telecomClasses' messages; oom: the program's own
// out-of-memory. A long line is a paragraph that quotes one.
func telecomOwnLine(t string) (why string, oom, ok bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false, false
	}
	for _, c := range telecomClasses {
		k := strings.Index(t, c.needle)
		if k < 0 {
			continue
		}
		if c.needle2 != "" && !strings.Contains(t[k+len(c.needle):], c.needle2) {
			continue
		}
		return c.why, c.oom, true
	}
	if why, oom, ok := kamailioOwnLine(t); ok {
		return why, oom, true // Kamailio's own pools, memory summary and buffer probe (unreadkamailio.go, fix49d)
	}
	if why, ok := srslogRadioLine(t); ok {
		return why, false, true
	}
	if why, ok := wwanMTUDropLine(t); ok {
		return why, false, true // a modem driver's MTU drop (unreadwwanmtu.go, fix38c)
	}
	return "", false, false
}

// srslogRadioLine: srsRAN 4G's radio log line "[RF     ] [I] Overflow" (srslog's text
// formatter pads the channel name to 7, prints the level letter and, when set, a context
// field "[%5d]"), whose message is one word: Overflow or Underflow.
func srslogRadioLine(t string) (string, bool) {
	k := strings.Index(t, "[RF ")
	if k < 0 {
		return "", false
	}
	rest := strings.TrimLeft(t[k+4:], " ")
	if len(rest) < 6 || rest[0] != ']' || rest[1] != ' ' || rest[2] != '[' || rest[4] != ']' {
		return "", false
	}
	msg := strings.TrimSpace(rest[5:])
	if len(msg) > 2 && msg[0] == '[' {
		if j := strings.IndexByte(msg, ']'); j > 0 && leadingDigits(strings.TrimSpace(msg[1:j])) == strings.TrimSpace(msg[1:j]) {
			msg = strings.TrimSpace(msg[j+1:]) // srslog's context field, "[ 5432] "
		}
	}
	switch msg {
	case "Overflow", "Underflow":
		return "srsRAN 4G's radio log (radio.cc handle_rf_msg: \"Overflow\", \"Underflow\")" + telecomRadioWhy, true
	}
	return "", false
}

// isTelecomTag: the syslog tags of the programs telecomClasses names (their daemons'
// names as their packages start them; Kamailio's may be its path).
func isTelecomTag(tag string) bool {
	switch tag {
	case "kamailio", "/usr/sbin/kamailio", "/usr/local/sbin/kamailio", "asterisk", "freeswitch",
		"srsenb", "srsue", "srsepc", "gnb", "nr-softmodem", "lte-softmodem", "nr-uesoftmodem", "lte-uesoftmodem",
		"upf", "nr-gnb", "nr-ue":
		return true
	}
	return strings.HasPrefix(tag, "open5gs-")
}

// telecomLogText: the message of a syslog-parsed line t as telecomOwnLine reads it. A line
// under the program's own stamp and bracketed field (ownStampHost: srslog's "[RF     ] [I]
// Overflow", FreeSWITCH's "[CRIT] switch_core_session.c:1181 Memory Error!") was split at
// that field as if it were a host and a tag: both are put back in front.
func telecomLogText(l *Line, t string) string {
	if !ownStampHost(l) {
		return t
	}
	return l.Host + " " + l.Tag + " " + t
}

const sctpSNMPWhy = "the kernel's SCTP counters (/proc/net/sctp/snmp, net/sctp/proc.c sctp_snmp_list; nstat prints the same names): SctpInPktDiscards counts packets sctp_rcv dropped (a bad checksum, no endpoint or association, or the socket's backlog over its receive buffer), SctpInDataChunkDiscards DATA chunks dropped by sctp_eat_data (past the receive window, a bad stream, duplicates), SctpT3RtxExpireds and SctpT3Retransmits retransmission timeouts; since boot, no rate from one sample; headroom has no rule for SCTP (its memory is net.sctp.sctp_mem, its buffers sctp_rmem/sctp_wmem)"

// sctpSNMPLine: t is a row of /proc/net/sctp/snmp ("SctpInPktDiscards               \t1532",
// seq_printf "%-32s\t%ld") or nstat's ("SctpInPktDiscards   1532   0.0"): "Sctp", a
// capitalised name of letters and digits, blanks, the count, nstat's rate.
func sctpSNMPLine(t string) bool {
	s := strings.TrimSpace(t)
	if len(s) < 8 || !strings.HasPrefix(s, "Sctp") || s[4] < 'A' || s[4] > 'Z' {
		return false
	}
	n := 4
	for n < len(s) && (s[n] >= 'A' && s[n] <= 'Z' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= '0' && s[n] <= '9') {
		n++
	}
	f := strings.Fields(s[n:])
	if n == len(s) || (s[n] != ' ' && s[n] != '\t') || len(f) < 1 || len(f) > 2 || leadingDigits(f[0]) != f[0] {
		return false
	}
	return len(f) == 1 || strings.Trim(f[1], "0123456789.") == ""
}
