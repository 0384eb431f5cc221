package artifact

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// logNICs reads only the records appendLog and relog listed; it must give what reading every
// record gives, on the corpus, on generated syslogs, and on link-up lines that are wrapped,
// joined to their next piece, logged out of order or inside a report's window.
func TestLogNICsListedEqualsFullScan(t *testing.T) {
	defer func() { logNICsListed = true }()
	texts := map[string]string{}
	files, _ := filepath.Glob("../testdata/corpus/*.txt")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = string(b)
	}
	var gen bytes.Buffer
	if err := GenerateSyslog(&gen, 2<<20, 3); err != nil {
		t.Fatal(err)
	}
	texts["generated"] = gen.String()
	up := "[  12.345678] vmxnet3 0000:0b:00.0 eth0: NIC Link is Up 10000 Mbps\n"
	texts["wrapped"] = "Jan  1 00:00:03 h kernel: [ 1234.626597] e1000e 0000:00:19.0 eth1: NIC Link is\n" +
		"Up 1000 Mbps Full Duplex\nJan  1 00:00:03 h kernel: [ 1234.626598] usb 1-1: new device\n"
	texts["out of order"] = up + "[  10.000000] igb 0000:01:00.0 eno1: NIC Link is Up 1000 Mbps\n" + strings.Repeat("[  13.000000] usb 1-1: new device\n", 20)
	texts["beside a report"] = up + gen.String()[:200<<10] + "[  14.000000] ixgbe 0000:03:00.1 eth2: NIC Link is Up 10 Gbps, Flow Control: RX/TX\n"
	found := 0
	for name, text := range texts {
		logNICsListed = true
		listed := ParseString(text, name, Options{})
		logNICsListed = false
		full := ParseString(text, name, Options{})
		if !reflect.DeepEqual(listed.Host.NICs, full.Host.NICs) {
			t.Errorf("%s: NICs %+v listed, %+v from every record", name, listed.Host.NICs, full.Host.NICs)
		}
		if !reflect.DeepEqual(listed.Artifacts, full.Artifacts) {
			t.Errorf("%s: the artifacts differ", name)
		}
		if len(full.Host.NICs) > 0 {
			found++
		}
	}
	if found < 4 {
		t.Errorf("only %d texts named a NIC: the test compares little", found)
	}
}
