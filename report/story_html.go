package report

import "html/template"

// The HTML report leads with the verdict: the first screen holds what failed, the chain with
// its proving numbers, the first change with its command, the independent problems and what
// to collect next; the findings in full follow.

const verdictStyle = `.verdict{line-height:1.35;background:#fff;border:1px solid #ccc;border-left:6px solid #d62728;border-radius:4px;padding:8px 14px;margin:12px 0}
.verdict.quiet{border-left-color:#1f77b4}.verdict h2{margin:2px 0 4px;border:0}
.verdict dt{font-weight:700;margin-top:6px}.verdict dd{margin:2px 0 4px 0}
.verdict ol.chain{margin:2px 0;padding-left:22px}.verdict ol.chain li{margin:2px 0}
.verdict .because{color:#555;font-style:italic;font-size:13px}.verdict .proof{font-family:ui-monospace,monospace;font-size:12px;color:#333}
.verdict pre{background:#f4f4f4;padding:4px 8px;margin:4px 0;border-radius:3px;font-size:12.5px;white-space:pre-wrap}
`

func init() {
	template.Must(htmlTemplate.New("verdict").Parse(`{{if .}}<section class="verdict{{if .Quiet}} quiet{{end}}" id="verdict">
<h2>Verdict</h2>
{{if .Quiet}}{{if .NotRead}}<p>No current problem in what was read; not read:</p>
<ul class="notread">{{range .NotRead}}<li>{{.}}</li>{{end}}</ul>{{if .Chain}}<p>Noted (since-boot or informational findings only):</p>{{end}}{{else}}<p>No current problem; since-boot or informational findings only:</p>{{end}}
<ul>{{range .Chain}}<li><b>{{.Title}}</b> <span class="id">{{.ID}}</span> <span class="proof">{{.Proof}}</span></li>{{end}}{{range .Independent}}<li><b>{{(index .Chain 0).Title}}</b> <span class="id">{{(index .Chain 0).ID}}</span> <span class="proof">{{(index .Chain 0).Proof}}</span></li>{{end}}</ul>
{{else}}<dl>
<dt>What failed</dt><dd>{{.Failed}}</dd>
<dt>Why</dt><dd><ol class="chain">{{range $i, $l := .Chain}}<li>{{if $i}}<span class="because">→ {{$l.Because}}</span><br>{{end}}<b>{{$l.Title}}</b> <span class="id">{{$l.ID}}</span><br><span class="proof">{{$l.Proof}}</span></li>
{{end}}</ol>
{{range .Also}}<div>also <b>{{.Title}}</b> <span class="id">{{.ID}}</span> <span class="proof">{{.Proof}}</span></div>{{end}}
{{range .Aggravating}}<div>made worse by <b>{{.Title}}</b> <span class="id">{{.ID}}</span> <span class="because">{{.Because}}</span></div>{{end}}
</dd>
{{with .First}}<dt>First change</dt><dd><span class="mono">{{.Key}}{{if .Current}} {{.Current}} →{{else}}:{{end}} {{.Value}}</span>{{if .Command}}<pre>{{.Command}}</pre>{{end}}{{if .Why}}<div class="meta">{{.Why}}</div>{{end}}</dd>{{end}}
{{if .Then}}<dt>Then</dt><dd><ol>{{range .Then}}<li><span class="mono">{{.Key}}{{if .Current}} {{.Current}} →{{else}}:{{end}} {{.Value}}</span>{{if .Command}} <code>{{.Command}}</code>{{end}}</li>{{end}}</ol></dd>{{end}}
{{if .Independent}}<dt>Separately</dt><dd><ul>{{range .Independent}}<li>{{range $i, $l := .Chain}}{{if $i}} → {{end}}<span class="id">{{$l.ID}}</span>{{end}}: {{(index .Chain 0).Title}} <span class="proof">{{(index .Chain 0).Proof}}</span>{{with .Change}}; fix <span class="mono">{{.Key}}: {{.Value}}</span>{{end}}</li>{{end}}</ul></dd>{{end}}
{{if .NotRead}}<dt>Not read</dt><dd><ul class="notread">{{range .NotRead}}<li>{{.}}</li>{{end}}</ul></dd>{{end}}
{{if .Next}}<dt>Collect next</dt><dd>{{range .Undecided}}<div class="meta">{{.}}</div>{{end}}<ul>{{range .Next}}<li><code>{{.Command}}</code> — {{.Answers}}</li>{{end}}</ul></dd>{{end}}
</dl>{{end}}
</section>{{end}}`))
}
