package artifact

import "strings"

// Helpdesk and healthcare application stacks' own out-of-memory lines (h40b) that no other
// reader knew: Orthanc's NotEnoughMemory and Perl's (Znuny/OTRS, their daemons and cron
// scripts) "Out of memory!". Each is the program's own allocation refused and the program
// stopping the request or itself: no kill by the kernel's OOM killer. Orthanc's newer text
// even says "The server hosting Orthanc is running out of memory", which is the
// std::bad_alloc of one request, not a statement about the host's free memory. Each is
// listed as unread with what it proves (appOOMLine), so a title that quotes it is that
// program's message (programOOMText); no finding is raised.
//
// Gated by appOOMLine's "emory"; each form then asks one fixed needle.

// Orthanc OrthancFramework/Sources/Enumerations.cpp EnumerationToString(ErrorCode) and
// OrthancServer/Plugins/Include/orthanc/OrthancCPlugin.h (orthanc-mirrors): ErrorCode 4
// NotEnoughMemory, described "Not enough memory" before 1.5 and "The server hosting Orthanc
// is running out of memory" since; HttpServer.cpp catches std::bad_alloc in the HTTP
// handler and throws it (LOG(ERROR) the same text). Orthanc logs as glog does:
// "E1130 10:22:31.532412 [THREAD] HttpServer.cpp:1238] ...".
const orthancOOMWhy = "Orthanc's own NotEnoughMemory (error code 4, \"The server hosting Orthanc is running out of memory\", \"Not enough memory\" before 1.5: HttpServer.cpp turns a std::bad_alloc in the request's handler into it, and the REST answer is an HTTP 500 with OrthancStatus 4): one allocation of Orthanc's was refused (a huge DICOM file or archive built in memory, the process's address space, RLIMIT_AS, a container's limit under overcommit) and Orthanc failed that request itself: no kill by the kernel's OOM killer and, despite its words, no statement about the host's free memory; headroom has no reader for this log"

// Perl util.c (openbsd/src gnu/usr.bin/perl/util.c) croak_no_mem: safesysmalloc or
// safesysrealloc got NULL and perl writes PL_no_mem, "Out of memory!\n" (perl.h), to
// stderr and exits 1; perl 5.38 says "Out of memory in perl:util:safesysmalloc"
// (croak_no_mem_ext with the caller); perl's own malloc.c "Out of memory during request
// for N bytes, total sbrk() is M bytes!". Znuny/OTRS (otrs.Daemon.pl, otrs.Console.pl) and
// other Perl programs print it so.
const perlOOMWhy = "perl's own allocation failed (util.c croak_no_mem: \"Out of memory!\", since 5.38 \"Out of memory in perl:util:safesysmalloc\"; malloc.c \"Out of memory during request for N bytes\"): malloc or realloc returned NULL for the interpreter (its address space, RLIMIT_AS, overcommit under vm.overcommit_memory=2, or a runaway structure) and perl exited by itself with status 1: no kill by the kernel's OOM killer (that is SIGKILL and \"Killed\") and no statement about the host's free memory; headroom has no reader for this log"

// helpdeskOOMLine says why t is one of these programs' own out-of-memory lines.
func helpdeskOOMLine(t string) (string, bool) {
	if orthancOOMText(t) {
		return orthancOOMWhy, true
	}
	if perlOOMText(t) {
		return perlOOMWhy, true
	}
	return "", false
}

// orthancOOMText: Orthanc's newer description anywhere (its own words, no other program's);
// the older "Not enough memory" only under Orthanc's glog header ("FILE.cpp:N] ") or as the
// REST answer's "OrthancError" field, since many programs say "not enough memory".
func orthancOOMText(t string) bool {
	if strings.Contains(t, "The server hosting Orthanc is running out of memory") {
		return true
	}
	k := strings.Index(t, "Not enough memory")
	if k < 0 {
		return false
	}
	if strings.Contains(t[:k], "\"OrthancError\"") {
		return true
	}
	h := strings.Index(t[:k], ".cpp:")
	return h > 0 && glogSeverityStart(t) && strings.Contains(t[h:k], "] ")
}

// glogSeverityStart: t begins as glog's header, "E1130 " (severity I/W/E/F, month and day).
func glogSeverityStart(t string) bool {
	s := strings.TrimLeft(t, " \t")
	if len(s) < 6 || strings.IndexByte("IWEF", s[0]) < 0 || s[5] != ' ' {
		return false
	}
	for _, c := range []byte(s[1:5]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// perlOOMText: perl's messages alone on their line (a log's stamp and program before a
// colon allowed for the bare "Out of memory!", which many programs print as a sentence).
func perlOOMText(t string) bool {
	s := strings.TrimSpace(t)
	if strings.HasPrefix(s, "Out of memory in perl:") || strings.HasPrefix(s, "Out of memory during request for ") || strings.HasPrefix(s, "Out of memory during \"large\" request for ") {
		return true
	}
	return s == "Out of memory!"
}
