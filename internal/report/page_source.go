package report

// The page's templates. Every figure is inline SVG with a title; what
// colour says is also said by a sign (✓ ✂ ⚠ ≠), a pattern or a word.

const configSource = `{{range .}}
<section class="config" id="row-{{.Row}}">
<h3>{{.Label}} <small>row {{.Row}}</small></h3>
{{range .Texts}}<figure class="text">
<figcaption>The server's text ({{.Reply}} reply, {{num .Chars}} characters){{if .Cuts}} with each client's cut{{else}}, kept whole by every client that received it{{end}}. <span class="key"><span class="kept">kept by all</span> <span class="some">kept by some</span> <span class="lost">lost by all</span> <span class="mark">[at N]</span> marker <span class="code">CODEWORD</span></span></figcaption>
{{range .Cuts}}<p class="cutnote">✂ <b>{{.Client}}</b> keeps {{num .At}} characters and loses {{num .Lost}}. First lost sentence: “{{.Sentence}}”</p>
{{end}}<div class="textbox" tabindex="0">{{range .Pieces}}{{if .Cut}}<span class="cut" role="note">✂ {{.Cut}}</span>{{else if .Elided}}<span class="elided">[… {{num .Elided}} characters not shown …]</span>{{else}}<span class="{{.Class}}">{{.Text}}</span>{{end}}{{end}}</div>
</figure>
{{end}}<div class="clients">
{{range $c := .Clients}}<div class="clientbox">
<h4><a href="{{$c.RunLink}}">{{$c.Client}}</a>{{if $c.Failed}} <span class="failed">⚠ {{$c.Failed}}</span>{{end}}</h4>
{{with $c.Map}}<figure class="map">
{{if .Why}}<figcaption>First model request: <a href="{{$c.RequestsLink}}">not drawn: {{.Why}}</a></figcaption>
{{else}}<figcaption>First model request (<a href="{{$c.RequestsLink}}">request {{.Seq}}</a>, {{num .Chars}} characters){{with .Text}}: the server's text is {{num .Kept}} characters, {{.Share}} of it, in {{.Path}}{{else}}: the server's text is not in it{{end}}.</figcaption>
<svg role="img" viewBox="0 0 600 50" width="100%" height="50"><title>Parts of the first model request of {{$c.Client}}, sized by characters{{with .Text}}; the server's text marked in {{.Path}}{{end}}</title>
{{range .Parts}}<rect x="{{f .X}}" y="18" width="{{f .W}}" height="22" class="k-{{.Kind}}{{if .HoldsText}} holds{{end}}"><title>{{part .}}: {{num .Chars}} characters</title></rect>
{{end}}{{with .Text}}<rect x="{{f .X}}" y="13" width="{{f .W}}" height="32" class="spot"/><text x="{{f .X}}" y="10" class="spotlabel{{if gt .X 420.0}} end{{end}}">▼ server text, {{num .Kept}} chars</text>{{end}}
</svg>
<ol class="parts">{{range .Parts}}<li><span class="swatch k-{{.Kind}}"></span>{{part .}} <small>{{.Path}}</small> <span class="n">{{num .Chars}}</span>{{if .HoldsText}} <b class="here">◀ server text here</b>{{end}}</li>
{{end}}</ol>
{{end}}</figure>
{{end}}{{with $c.Seq}}<figure class="seq">
{{if .Why}}<figcaption>Handshake: <a href="{{$c.LabLink}}">not drawn: {{.Why}}</a></figcaption>
{{else}}<figcaption>Handshake (<a href="{{$c.LabLink}}">lab.jsonl</a>, <a href="{{$c.RequestsLink}}">requests</a>){{if .More}}: {{.More}} later messages not shown{{end}}</figcaption>
<svg role="img" viewBox="0 0 640 {{.Height}}" width="100%"><title>Handshake of {{$c.Client}}: {{.Alt}}</title>
<text x="{{lane 0}}" y="14" class="lane">client</text><text x="{{lane 1}}" y="14" class="lane">server (lab)</text><text x="{{lane 2}}" y="14" class="lane">model API</text>
<line x1="{{lane 0}}" x2="{{lane 0}}" y1="20" y2="{{.Height}}" class="life"/><line x1="{{lane 1}}" x2="{{lane 1}}" y1="20" y2="{{.Height}}" class="life"/><line x1="{{lane 2}}" x2="{{lane 2}}" y1="20" y2="{{.Height}}" class="life"/>
{{range .Events}}<text x="2" y="{{.Y}}" class="at">{{.At}}</text><line x1="{{.X1}}" x2="{{.X2}}" y1="{{.Y}}" y2="{{.Y}}" class="msg{{if .Error}} err{{end}}{{if .API}} api{{end}}" marker-end="url(#arrow)"/><text x="{{add .X1 .X2 | half}}" y="{{add .Y -4}}" class="label">{{.Label}}</text>
{{end}}</svg>
{{end}}</figure>
{{end}}{{if $c.Warnings}}<ul class="warn">{{range $c.Warnings}}<li>⚠ {{.}}</li>{{end}}</ul>{{end}}
</div>
{{end}}</div>
</section>
{{end}}`

const pageSource = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
:root{--kept:#2b6cb0;--lost:#c05621;--some:#b7791f;--ink:#1a202c;--muted:#4a5568;--line:#cbd5e0}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0 auto;padding:1.2em 2em;max-width:1280px}
h1{font-size:1.6em;margin:.2em 0}
h2{font-size:1.3em;border-bottom:2px solid var(--line);padding-bottom:.2em;margin-top:1.6em}
h3{font-size:1.1em;margin:1.4em 0 .4em}
h3 small,h4 small{color:var(--muted);font-weight:normal}
a{color:inherit;text-decoration-color:var(--line)}
a:hover{text-decoration-color:currentColor}
nav a{margin-right:1em}
p.lead{color:var(--muted);max-width:60em}
table.summary{border-collapse:collapse;width:100%;table-layout:fixed}
table.summary th,table.summary td{padding:.25em .5em;text-align:left;vertical-align:middle;border-top:1px solid #edf2f7;overflow-wrap:anywhere}
table.summary tr.first th,table.summary tr.first td{border-top:1px solid var(--line)}
table.summary thead th{font-size:.85em;color:var(--muted);font-weight:600}
table.summary th[scope=row]{font-weight:600}
table.summary td.num{font-variant-numeric:tabular-nums;white-space:nowrap}
table.summary td small{display:block;color:var(--muted);white-space:normal}
td.failed,span.failed{color:#9b2c2c;font-weight:600}
.none{color:var(--muted);font-style:italic}
svg .kept{fill:var(--kept)}
svg .lost{fill:url(#hatch);stroke:var(--lost);stroke-width:1}
svg .cap{stroke:var(--ink);stroke-width:3}
svg .capopen{fill:none;stroke:var(--ink);stroke-width:2}
figure{margin:.6em 0}
figcaption{color:var(--muted);margin-bottom:.3em}
.key span{padding:0 .3em;margin-left:.3em}
.textbox{font:12px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;overflow-wrap:anywhere;max-height:24em;overflow:auto;border:1px solid var(--line);padding:.5em;background:#fff}
span.kept{background:#ebf4ff}
span.some{background:#fefcbf;text-decoration:underline dotted}
span.lost{color:#7b341e;background:#fff5f5;text-decoration:line-through;text-decoration-color:#feb2b2}
span.mark{font-weight:700;outline:1px solid #a0aec0}
span.code{font-weight:700;outline:2px solid var(--ink)}
span.elided{color:var(--muted);font-style:italic;background:#f7fafc}
span.cut{display:inline-block;background:var(--ink);color:#fff;padding:0 .4em;margin:0 .2em;font-weight:700}
p.cutnote{margin:.2em 0}
.clients{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,560px),1fr));gap:1em}
figure.seq svg{max-width:640px}
.clientbox{border:1px solid var(--line);border-radius:4px;padding:.4em .8em;min-width:0}
.clientbox h4{margin:.2em 0}
ol.parts{list-style:none;padding:0;margin:.2em 0;font-size:.85em;columns:2}
ol.parts li{break-inside:avoid}
.swatch{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:-.1em;border:1px solid #718096}
.k-system{fill:#a3bffa;background:#a3bffa}
.k-system-message{fill:#9ae6b4;background:#9ae6b4}
.k-developer-message{fill:#fbd38d;background:#fbd38d}
.k-user-turn{fill:#feb2b2;background:#feb2b2}
.k-assistant-turn{fill:#d6bcfa;background:#d6bcfa}
.k-tool-result{fill:#fbb6ce;background:#fbb6ce}
.k-tool-definition{fill:#e2e8f0;background:repeating-linear-gradient(45deg,#e2e8f0 0 3px,#a0aec0 3px 4px)}
svg rect[class^=k-]{stroke:#fff;stroke-width:.5}
svg rect.holds{stroke:var(--ink);stroke-width:1}
svg .spot{fill:none;stroke:var(--ink);stroke-width:2.5}
svg text{font:11px system-ui,sans-serif;fill:var(--ink)}
svg text.spotlabel{font-weight:700}
svg text.end{text-anchor:end}
svg text.lane{text-anchor:middle;font-weight:700}
svg text.label{text-anchor:middle}
svg text.at{fill:var(--muted);font-variant-numeric:tabular-nums}
svg .life{stroke:var(--line);stroke-dasharray:4 3}
svg .msg{stroke:var(--ink);stroke-width:1.3}
svg .msg.err{stroke:#9b2c2c;stroke-dasharray:5 2}
svg .msg.api{stroke:var(--kept);stroke-width:2}
b.here{color:var(--ink)}
ul.warn{color:#744210;font-size:.85em;padding-left:1em}
.scroll{overflow-x:auto}
table.full{border-collapse:collapse;font-size:12px}
table.full th,table.full td{border:1px solid var(--line);padding:.2em .4em;vertical-align:top;text-align:left}
table.full th.group{background:#ebf4ff}
table.full td.diff{background:#fefcbf;font-weight:600}
p.note{max-width:60em;color:var(--muted)}
@media print{
body{padding:0;max-width:none;font-size:11px}
nav{display:none}
.textbox{max-height:none;overflow:visible}
.scroll{overflow:visible}
section.config{break-inside:avoid-page}
.clientbox,figure{break-inside:avoid}
a{text-decoration:none}
}
{{.Style}}</style></head><body>
<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false"><defs>
<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff5f5"/><line x1="0" y1="0" x2="0" y2="6" stroke="#c05621" stroke-width="2"/></pattern>
<marker id="arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L8 4L0 8z" fill="#1a202c"/></marker>
</defs></svg>
<header><h1>{{.Title}}</h1>
{{with .Lead}}<p class="lead">{{.}}</p>
{{end}}<nav>{{range .Sections}}<a href="#{{.ID}}">{{.Title}}</a>{{end}}</nav></header>
<main>
{{range .Sections}}<section id="{{.ID}}"><h2>{{.Title}}</h2>
{{.Body}}
</section>
{{end}}</main>
</body></html>
`
