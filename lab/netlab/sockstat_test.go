package netlab

import "testing"

func TestParseSockstatTCPMem(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  int64
		ok    bool
		isErr bool
	}{
		{"sockets: used 120\nTCP: inuse 5 orphan 0 tw 0 alloc 7 mem 2\nUDP: inuse 1 mem 0\n", 2, true, false},
		{"TCP: inuse 5 orphan 0 tw 0 alloc 7 mem 388523\n", 388523, true, false},
		// 2.4-era layout had no mem field on some builds: absent, not zero.
		{"TCP: inuse 5 orphan 0 tw 0 alloc 7\n", 0, false, false},
		{"UDP: inuse 1 mem 9\n", 0, false, false},
		{"", 0, false, false},
		{"TCP: inuse 5 mem x\n", 0, false, true},
		// TCP6 lines live in sockstat6 and must not be taken for TCP.
		{"TCP6: inuse 3\nTCP: inuse 1 orphan 0 tw 0 alloc 1 mem 4\n", 4, true, false},
	} {
		got, ok, err := parseSockstatTCPMem([]byte(tc.in))
		if (err != nil) != tc.isErr || ok != tc.ok || got != tc.want {
			t.Errorf("parseSockstatTCPMem(%q) = %d, %v, %v; want %d, %v, err=%v", tc.in, got, ok, err, tc.want, tc.ok, tc.isErr)
		}
	}
}

func FuzzParseSockstatTCPMem(f *testing.F) {
	f.Add([]byte("TCP: inuse 5 orphan 0 tw 0 alloc 7 mem 2\n"))
	f.Add([]byte("TCP: mem\n"))
	f.Add([]byte("TCP: mem -1 mem 2"))
	f.Fuzz(func(t *testing.T, b []byte) {
		parseSockstatTCPMem(b)
	})
}
