package artifact

import "testing"

func TestFix19aProgramListenFull(t *testing.T) {
	cases := []struct {
		line   string
		want   bool
		q, m   int64
		socket string
	}{
		{`Tue May 31 13:51:28 2022 - *** uWSGI listen queue of socket ":3030" (fd: 4) full !!! (101/100) ***`, true, 101, 100, ":3030"},
		{`Sep 16 00:38:50 host uwsgi[9911]: Sun Sep 16 00:38:50 2018 - *** uWSGI listen queue of socket "127.0.0.1:5000" (fd: 3) full !!! (100/100) ***`, true, 100, 100, "127.0.0.1:5000"},
		{`*** uWSGI listen queue of socket 3 full !!! (1025/1024) ***`, true, 1025, 1024, "3"},
		// counter-cases
		{`Tue May 31 13:51:28 2022 - *** uWSGI listen queue of socket ":3030" (fd: 4) full !!! (99/100) ***`, false, 0, 0, ""},
		{`your server socket listen backlog is limited to 100 connections`, false, 0, 0, ""},
		{`{"listen_queue":0,"listen_queue_errors":0}`, false, 0, 0, ""},
		{`If you see "*** uWSGI listen queue of socket ":3030" (fd: 4) full !!! (101/100) ***" raise --listen.`, false, 0, 0, ""},
		{`The message, e.g. *** uWSGI listen queue of socket ":3030" (fd: 4) full !!! (101/100) ***, means the queue is full.`, false, 0, 0, ""},
		{`# uWSGI listen queue of socket full`, false, 0, 0, ""},
	}
	for _, c := range cases {
		d := ParseString(c.line+"\n", "t", Options{})
		var got bool
		for _, p := range d.ProgramListenFulls {
			got = true
			if p.Queued != c.q || p.Backlog != c.m || p.Socket != c.socket {
				t.Errorf("%q: got %+v", c.line, p)
			}
		}
		if got != c.want {
			t.Errorf("%q: report %v, want %v", c.line, got, c.want)
		}
	}
}

func TestFix19aProgramListenFullRepeated(t *testing.T) {
	text := `Tue May 31 13:51:26 2022 - *** uWSGI listen queue of socket ":3030" (fd: 4) full !!! (100/100) ***
Tue May 31 13:51:27 2022 - *** uWSGI listen queue of socket ":3030" (fd: 4) full !!! (101/100) ***
Tue May 31 13:51:28 2022 - *** uWSGI listen queue of socket ":3030" (fd: 4) full !!! (100/100) ***
`
	tl := ParseString(text, "t", Options{})
	if len(tl.ProgramListenFulls) != 1 {
		t.Fatalf("got %+v", tl.ProgramListenFulls)
	}
	p := tl.ProgramListenFulls[0]
	if p.Count != 3 || p.Queued != 101 || p.Backlog != 100 || p.Source != "lines 1-3" {
		t.Errorf("got %+v", p)
	}
}

func TestFix19aProgramBacklogSetting(t *testing.T) {
	for _, c := range []struct {
		text string
		want int64 // 0: none read
	}{
		{"```bash\nuwsgi --http 0.0.0.0:8080 --workers 1 --listen 2 --module wsgi:app\n```\n", 2},
		{"$ uwsgi --socket :3030 --listen=1024\n", 1024},
		{"```\n[uwsgi]\nmodule = wsgi:application\nsocket = wsgi.sock\nlisten = 10\n```\n", 10},
		// counter-cases: nginx's listen directive, another section's key, prose, another program
		{"```\nserver {\n\tlisten 80 default_server;\n}\n```\n", 0},
		{"```\n[server]\nlisten = 8080\n```\n", 0},
		{"I set --listen 1024 and the queue still fills.\n", 0},
		{"gunicorn --backlog 64 --listen 2 app:app\n", 0},
	} {
		tl := ParseString(c.text, "t", Options{})
		var got int64
		for _, b := range tl.ProgramBacklogs {
			got = b.Value
		}
		if got != c.want {
			t.Errorf("%q: backlog %d, want %d (%+v)", c.text, got, c.want, tl.ProgramBacklogs)
		}
	}
}
