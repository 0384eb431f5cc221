package artifact

import "testing"

// Salt's start-up report of its descriptor limit (salt/master.py __set_max_open_files) is
// named as a process limit, no finding; counter-cases: the source's format string, a sentence
// about the option, advice.
func TestFix30cSaltMaxOpenFiles(t *testing.T) {
	for _, text := range []string{
		"Current values for max open files soft/hard setting: 16384/16384\n",
		"The value for the 'max_open_files' setting, 100000, is higher than what the user running salt is allowed to raise to, 16384. Defaulting to 16384.\n",
		"2018-01-25 10:00:01,123 [salt.master      ][INFO    ][1234] The value for the 'max_open_files' setting, 100000, is higher than the highest value the user running salt is allowed to set (16384). Defaulting to 16384.\n",
		"New values for max open files soft/hard values: 100000/100000\n",
	} {
		namedNoOOM(t, text, "__set_max_open_files")
	}
	for _, c := range []string{
		"            'Current values for max open files soft/hard setting: {0}/{1}'.format(\n",
		"The configuration option max_open_files defaults to 100,000, but the salt-master service is only started with a limit of 16,384 open files.\n",
		"Check the current values for max open files soft/hard setting: they should be equal.\n",
	} {
		if tl := ParseString(c, "t", Options{}); f15Unread(tl, "__set_max_open_files") {
			t.Errorf("%q: named as salt's limit: %+v", c, tl.Unparsed)
		}
	}
}

// Ansible's -vvv return tuple of a command run over ssh, its stdout holding the remote
// shell's SIGKILL notice between "\r\n" escapes, is named as that notice (no OOM); counter-
// cases: a tuple with a clean stdout, "Killed" in stderr only, prose naming the tuple.
func TestFix30cAnsibleTupleKilled(t *testing.T) {
	const ssh = `b'OpenSSH_7.6p1 Ubuntu-4, OpenSSL 1.0.2n  7 Dec 2017\r\ndebug1: Reading configuration data /etc/ssh/ssh_config\r\ndebug3: mux_client_read_packet: read header failed: Broken pipe\r\ndebug2: Received exit status from master 137\r\nShared connection to h1.example closed.\r\n')`
	for _, text := range []string{
		`<h1.example> (137, b'\r\n/bin/sh: line 1: 26936 Killed                  /usr/bin/python /home/u/.ansible/tmp/ansible-tmp-1/AnsiballZ_command.py\r\n', ` + ssh + "\n",
		// Python 2's str repr, and a paste cut inside stdout.
		`<10.0.0.5> (137, '\n/bin/sh: line 1: 4242 Killed   /usr/bin/python /tmp/x/AnsiballZ_shell.py\n', '')` + "\n",
		`<10.0.0.5> (137, b'\r\n/bin/sh: line 1: 4242 Killed   /usr/bin/python /tmp/x/AnsiballZ_shell.py` + "\n",
	} {
		namedNoOOM(t, text, "Ansible's -vvv record")
	}
	for _, c := range []string{
		`<h1.example> (0, b'{"changed": true, "rc": 0}\r\n', ` + ssh + "\n",
		`<h1.example> (1, b'', b'debug1: /bin/sh: line 1: 77 Killed ssh-agent\r\n')` + "\n",
		"<h1.example> (137, ...) is what ansible printed before the task failed with Killed\n",
	} {
		if tl := ParseString(c, "t", Options{}); f15Unread(tl, "Ansible's -vvv record") {
			t.Errorf("%q: named: %+v", c, tl.Unparsed)
		}
	}
}
