package artifact

import "testing"

// h40b: helpdesk and healthcare stacks' own out-of-memory lines, from the programs' sources.
//   - Orthanc (orthanc-mirrors, OrthancFramework/Sources/Enumerations.cpp and
//     OrthancServer/Plugins/Include/orthanc/OrthancCPlugin.h: ErrorCode_NotEnoughMemory = 4,
//     "The server hosting Orthanc is running out of memory", "Not enough memory" before 1.5;
//     HttpServer.cpp throws it on std::bad_alloc): its glog lines and the REST answer's
//     "OrthancError" field are the program's own failed allocation.
//   - perl (openbsd/src gnu/usr.bin/perl/util.c croak_no_mem, perl.h PL_no_mem "Out of
//     memory!\n"; "Out of memory in perl:util:safesysmalloc" since 5.38), as Znuny/OTRS's
//     daemons print it.
//
// Counter-cases: the docs' explanation, a question, advice, another program's "not enough
// memory" and a sentence that says "Out of memory!" are not these messages.
func TestH40bHelpdeskOwnOOMUnread(t *testing.T) {
	for _, c := range []struct{ text, why string }{
		{"E1130 10:22:31.532412 HttpServer.cpp:1238] Exception in the HTTP handler: Not enough memory\n", orthancOOMWhy},
		{"E1130 10:22:31.532412 HTTP-12 HttpServer.cpp:1238] The server hosting Orthanc is running out of memory\n", orthancOOMWhy},
		{"W1130 10:22:31.532501 PluginsManager.cpp:153] Not enough memory\n", orthancOOMWhy},
		{"{\n  \"HttpError\" : \"Internal Server Error\",\n  \"HttpStatus\" : 500,\n  \"OrthancError\" : \"Not enough memory\",\n  \"OrthancStatus\" : 4\n}\n", orthancOOMWhy},
		{"Out of memory!\n", perlOOMWhy},
		{"$ perl bin/otrs.Console.pl Maint::Cache::Delete\nOut of memory!\n", perlOOMWhy},
		{"Out of memory in perl:util:safesysmalloc\n", perlOOMWhy},
		{"Out of memory during request for 1048576 bytes, total sbrk() is 2147483648 bytes!\n", perlOOMWhy},
	} {
		if w := unparsedWhy(c.text); !anyHas(w, c.why) {
			t.Errorf("%q: unparsed %q, want %q", c.text, w, c.why)
		}
	}
	for _, s := range []string{
		"NotEnoughMemory (code 4): Not enough memory on the server.\n",
		"What does \"Not enough memory\" mean in Orthanc's log?\n",
		"If Orthanc says Not enough memory, set MaximumStorageCacheSize to 128.\n",
		"E: Not enough memory to read the package list\n",
		"Out of memory! Please close some applications.\n",
		"Why does otrs.Daemon.pl print Out of memory! every night?\n",
	} {
		if w := unparsedWhy(s); anyHas(w, orthancOOMWhy) || anyHas(w, perlOOMWhy) {
			t.Errorf("%q: unparsed %q, want neither program's own message", s, w)
		}
	}
	// A title that quotes the message is the program's, not the host's running out.
	for _, s := range []string{"The server hosting Orthanc is running out of memory", "Out of memory in perl:util:safesysrealloc"} {
		if !programOOMText(s) {
			t.Errorf("%q: not a program's own out-of-memory", s)
		}
	}
}
