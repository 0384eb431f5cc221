package artifact

import (
	"strings"
	"testing"
)

// h34b: socket errnos as applications log them, in each runtime's or client's wrapping, are
// named as unread with what they prove (a peer's reset or refusal, a path's silence, a busy
// address, the process's descriptors, ephemeral ports); nothing is read from them.
func TestH34bSocketErrnoNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		// Go net.OpError
		{"2026/11/30 10:00:01 Get \"http://10.0.0.1:80/\": dial tcp 10.0.0.1:80: connect: connection refused", "ECONNREFUSED"},
		{"2026/11/30 10:00:01 dial tcp 10.0.0.1:80: connect: connection timed out", "ETIMEDOUT"},
		{"2026/11/30 10:00:01 listen tcp :8080: bind: address already in use", "EADDRINUSE"},
		{"2026/11/30 10:00:01 dial tcp 10.0.0.1:80: connect: cannot assign requested address", "EADDRNOTAVAIL"},
		// Python
		{"ConnectionResetError: [Errno 104] Connection reset by peer", "ECONNRESET"},
		{"BrokenPipeError: [Errno 32] Broken pipe", "EPIPE"},
		{"ConnectionRefusedError: [Errno 111] Connection refused", "ECONNREFUSED"},
		{"OSError: [Errno 98] Address already in use", "EADDRINUSE"},
		{"TimeoutError: [Errno 110] Connection timed out", "ETIMEDOUT"},
		{"requests.exceptions.ConnectionError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))", "ECONNRESET"},
		// Node.js
		{"Error: read ECONNRESET", "ECONNRESET"},
		{"Error: write EPIPE", "EPIPE"},
		{"Error: connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"},
		{"Error: connect ETIMEDOUT 10.0.0.1:443", "ETIMEDOUT"},
		{"Error: listen EADDRINUSE: address already in use :::3000", "EADDRINUSE"},
		{"  code: 'ECONNRESET',", "ECONNRESET"},
		// Java, netty
		{"java.net.SocketException: Connection reset", "ECONNRESET"},
		{"java.net.SocketException: Broken pipe (Write failed)", "EPIPE"},
		{"java.net.ConnectException: Connection refused (Connection refused)", "ECONNREFUSED"},
		{"java.net.BindException: Address already in use", "EADDRINUSE"},
		{"java.io.IOException: Connection reset by peer", "ECONNRESET"},
		{"io.netty.channel.unix.Errors$NativeIoException: readAddress(..) failed: Connection reset by peer", "ECONNRESET"},
		// nginx
		{"2026/11/30 10:00:01 [error] 1234#1234: *5 recv() failed (104: Connection reset by peer) while reading response header from upstream, client: 10.0.0.9", "ECONNRESET"},
		{"2026/11/30 10:00:01 [error] 1234#1234: *5 connect() failed (111: Connection refused) while connecting to upstream, client: 10.0.0.9", "ECONNREFUSED"},
		{"2026/11/30 10:00:01 [info] 1234#1234: *5 writev() failed (32: Broken pipe) while sending to client, client: 10.0.0.9", "EPIPE"},
		{"2026/11/30 10:00:01 [error] 1234#1234: *5 connect() failed (113: No route to host) while connecting to upstream", "EHOSTUNREACH"},
		// HAProxy, Envoy
		{"Nov 30 10:00:01 lb1 haproxy[1234]: Connect() failed for backend be_app: no free ports.", "ip_local_port_range"},
		{"Connect() failed for backend be_app: local address already in use.", "EADDRINUSE"},
		{"[ALERT]    (1234) : Connect() failed for backend be_php: can't connect to destination unix socket, check backlog size on the server.", "backlog"},
		{"Nov 30 10:00:01 web1 nginx[1234]: 2026/11/30 10:00:01 [error] 1234#1234: *5 connect() failed (111: Connection refused) while connecting to upstream", "ECONNREFUSED"},
		{"[ALERT] 333/100001 (1) : Starting frontend http: cannot bind socket (Address already in use) [0.0.0.0:80]", "EADDRINUSE"},
		{"[2026-11-30 10:00:01.123][12][warning][upstream] upstream connect error or disconnect/reset before headers. reset reason: connection failure, transport failure reason: delayed connect error: 99", "EADDRNOTAVAIL"},
		// curl
		{"curl: (7) Failed to connect to 10.0.0.1 port 80 after 0 ms: Couldn't connect to server", "CURLE_COULDNT_CONNECT"},
		{"curl: (7) Failed to connect to 10.0.0.1 port 80 after 3 ms: Connection refused", "ECONNREFUSED"},
		{"curl: (56) Recv failure: Connection reset by peer", "ECONNRESET"},
		{"curl: (28) Operation timed out after 2001 milliseconds with 0 bytes received", "CURLE_OPERATION_TIMEDOUT"},
		// libpq, MySQL
		{"psql: could not connect to server: Cannot assign requested address", "EADDRNOTAVAIL"},
		{"could not receive data from server: Connection reset by peer", "ECONNRESET"},
		{"could not send data to server: Broken pipe", "EPIPE"},
		{"ERROR 2003 (HY000): Can't connect to MySQL server on '10.0.0.1:3306' (99)", "EADDRNOTAVAIL"},
		{"ERROR 2003 (HY000): Can't connect to MySQL server on '10.0.0.1:3306' (111)", "ECONNREFUSED"},
		{"ERROR 2013 (HY000): Lost connection to MySQL server at 'reading initial communication packet', system error: 104", "ECONNRESET"},
		{"ERROR 2002 (HY000): Can't connect to local MySQL server through socket '/var/run/mysqld/mysqld.sock' (11)", "EAGAIN"},
		// .NET, Ruby, PHP
		{"System.Net.Sockets.SocketException (104): Connection reset by peer", "ECONNRESET"},
		{"Errno::ECONNRESET: Connection reset by peer", "ECONNRESET"},
		{"Errno::ENOMEM: Cannot allocate memory - ps", "ENOMEM"},
		{"PHP Warning:  stream_socket_client(): unable to connect to tcp://10.0.0.1:80 (Cannot assign requested address) in /var/www/x.php on line 3", "EADDRNOTAVAIL"},
	} {
		tl := ParseString(c.text+"\n", "t", Options{})
		if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 1 || tl.Unparsed[0].LastLine != 1 || !strings.Contains(tl.Unparsed[0].Why, c.word) {
			t.Errorf("%q: unparsed %+v: want line 1 named (%s)", c.text, tl.Unparsed, c.word)
		}
		if c.word != "EADDRNOTAVAIL" && c.word != "EAGAIN" && c.word != "ENOMEM" && c.word != "backlog" && !strings.Contains(tl.Unparsed[0].Why, "headroom has no rule") {
			t.Errorf("%q: %q: want the peer's meaning (no rule)", c.text, tl.Unparsed[0].Why)
		}
		if len(tl.Artifacts) != 0 {
			t.Errorf("%q: artifacts %+v: want none (nothing read)", c.text, tl.Artifacts)
		}
		checkAccount(t, tl)
	}
}

// h34b counter-cases: advice, questions, a list of error strings, code that prints the
// message, another errno, another client exit code: nothing named.
func TestH34bSocketErrnoCounterCases(t *testing.T) {
	for _, s := range []string{
		"If you see ConnectionResetError: [Errno 104] Connection reset by peer, retry the request after 5 s",
		"When you get Error: read ECONNRESET on port 443, raise keepAliveTimeout",
		"Do you get curl: (56) Recv failure: Connection reset by peer on port 443?",
		"Do you get ECONNRESET on port 443?",
		"Common errors: ECONNRESET, EPIPE, ETIMEDOUT, ECONNREFUSED",
		"    log.Printf(\"dial tcp %s:%d: connect: connection refused\", host, 80)",
		"    print(\"could not receive data from server: {}\".format(err), 5)",
		"    fprintf(stderr, \"connect() failed (%d: %s)\\n\", errno, strerror(errno));",
		"OSError: [Errno 2] No such file or directory",
		"curl: (6) Could not resolve host: example.com",
		"java.net.SocketException: Connection reset handling changed in JDK 13",
		"Why do I get java.net.SocketException: Connection reset?",
		"If you see connect() failed (111: Connection refused) while connecting to upstream, check that php-fpm listens on 9000",
		"The error list: Connection refused, Connection reset by peer, Broken pipe",
		"ConnectionResetError(104, 'Some other text')",
		"Errno::ENOENT: No such file or directory - /tmp/x",
		"ERROR 2003 (HY000): Can't connect to MySQL server on '10.0.0.1:3306' (2)",
		"delayed connect error: 2",
		"Connect() failed for backend be_app: Permission denied.",
		"If you see Connect() failed for backend be_app: no free ports. raise the source port range to 1024-65535",
	} {
		tl := ParseString(s+"\n", "t", Options{})
		if len(tl.Unparsed) != 0 {
			t.Errorf("%q: unparsed %+v: want nothing named", s, tl.Unparsed)
		}
		if why, ok := socketErrnoLine(s); ok {
			t.Errorf("%q: socketErrnoLine named %q, want not", s, why)
		}
	}
}
