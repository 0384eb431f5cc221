package report

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"headroom/artifact"
	"headroom/diagnose"
)

// firstScreenProbe measures, once the page is laid out, where the verdict's parts are.
const firstScreenProbe = `<script>
window.addEventListener('load',function(){
 function bottom(sel){var e=document.querySelector(sel);return e?Math.round(e.getBoundingClientRect().bottom+window.scrollY):-1}
 function top(sel){var e=document.querySelector(sel);return e?Math.round(e.getBoundingClientRect().top+window.scrollY):-1}
 var dts=document.querySelectorAll('#verdict dt'),parts={};
 dts.forEach(function(dt){var dd=dt.nextElementSibling;parts[dt.textContent]=dd?Math.round(dd.getBoundingClientRect().bottom+window.scrollY):-1});
 var r=document.createElement('div');r.id='selftest';
 r.textContent=JSON.stringify({verdictTop:top('#verdict'),findingsTop:top('#findings'),chain:document.querySelectorAll('#verdict ol.chain li').length,parts:parts,height:window.innerHeight});
 document.body.appendChild(r);
});
</script>
`

// The HTML report of seed 004 opens on the story: in a 1280×900 window (a laptop's first
// screen) the verdict comes before the findings and its what-failed, why (the whole chain)
// and first change are above the fold. A screenshot of that screen is taken (with
// -screenshot it is written to docs/img/verdict.png to look at).
func TestHTMLFirstScreenIsTheStory(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (Debian package chromium): the browser check is skipped")
	}
	f, err := os.Open("../testdata/seeds/004_acd4bf0469cc77db.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := artifact.Parse(f, "004_acd4bf0469cc77db.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := diagnose.Run(tl, nil)
	var b bytes.Buffer
	if err := WriteHTML(&b, tl, d, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	probed := strings.Replace(b.String(), "default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';", 1)
	probed = strings.Replace(probed, "<head>\n", "<head>\n"+firstScreenProbe, 1)
	probePage := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(probePage, []byte(probed), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const height = 900
	size := "--window-size=1280,900"
	cmd := exec.CommandContext(ctx, bin, chromiumArgs(filepath.Join(dir, "p1"), size, "--virtual-time-budget=5000", "--dump-dom", "file://"+probePage)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`<div id="selftest">([^<]*)</div>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("no selftest result in the DOM (the probe did not run)\n%s", stderr.String())
	}
	var res struct {
		VerdictTop, FindingsTop, Chain, Height int
		Parts                                  map[string]int
	}
	if err := json.Unmarshal([]byte(unescapeHTML(string(m[1]))), &res); err != nil {
		t.Fatalf("selftest %s: %v", m[1], err)
	}
	t.Logf("chromium: verdict at %d px, findings at %d px, %d links in the chain, parts end at %v (window %d)", res.VerdictTop, res.FindingsTop, res.Chain, res.Parts, res.Height)
	if res.VerdictTop < 0 || res.VerdictTop > 200 {
		t.Errorf("the verdict starts at %d px, want it at the top of the page", res.VerdictTop)
	}
	if res.FindingsTop < res.VerdictTop {
		t.Errorf("the findings (%d px) come before the verdict (%d px)", res.FindingsTop, res.VerdictTop)
	}
	if res.Chain < 3 {
		t.Errorf("the chain has %d links, want the cause → lowmem failures → … chain", res.Chain)
	}
	fold := height // the viewport headless Chromium reports may be smaller than the window
	if res.Height > 0 && res.Height < fold {
		fold = res.Height
	}
	for _, part := range []string{"What failed", "Why", "First change"} {
		end, ok := res.Parts[part]
		switch {
		case !ok:
			t.Errorf("the verdict has no %q", part)
		case end > fold:
			t.Errorf("%q ends at %d px, below the first screen (%d px)", part, end, fold)
		}
	}

	png := filepath.Join(dir, "verdict.png")
	cmd = exec.CommandContext(ctx, bin, chromiumArgs(filepath.Join(dir, "p2"), size, "--screenshot="+png, "file://"+page)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	img, err := os.ReadFile(png)
	if err != nil || len(img) < 20000 || !bytes.HasPrefix(img, []byte("\x89PNG")) {
		t.Fatalf("screenshot: %d bytes, %v", len(img), err)
	}
	if *screenshot {
		if err := os.WriteFile("../docs/img/verdict.png", img, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
