package atlas

import "html/template"

// The atlas page's section of one client. What a band's colour says is
// written in it or in its title; a version that could not run is hatched
// and crossed (✕), a change point is a line labelled with its first
// version.
const clientSource = `<p class="lead">{{.Summary}}</p>
<figure class="atlas" aria-label="Timeline of {{.Client}}">
<figcaption>Versions oldest to newest in published order, a lane per property, a band per value (its whole value and evidence in its title; it links to the evidence). A line marks each change point, labelled with its first version (≤ when the change lies in versions not all probed). <span class="key"><span class="tick">▮</span> version run <span class="cnr">✕</span> could not run</span></figcaption>
<div class="scroll"><svg role="img" aria-label="Timeline of {{.Client}}" viewBox="0 0 {{f .Width}} {{f .Height}}" width="100%"><title>Timeline of {{.Client}}: {{len .Marks}} change points, {{len .CouldNotRun}} versions that could not run</title>
{{range .Marks}}{{if not .Exact}}<rect x="{{f .SpanX}}" y="{{f $.PlotTop}}" width="{{f (sub .X .SpanX)}}" height="{{f $.PlotH}}" class="span"><title>{{.Title}}</title></rect>{{end}}{{end}}
{{range $l := .Lanes}}<text x="124" y="{{f (mid $l.Y)}}" class="lanename">{{$l.Name}}</text>
{{range $l.Bands}}<a{{with .Href}} href="{{.}}"{{end}}><rect x="{{f .X}}" y="{{f (add $l.Y 2)}}" width="{{f .W}}" height="20" class="band {{.Class}}"><title>{{.Title}}</title></rect>{{if .Text}}<text x="{{f (add .X 4)}}" y="{{f (mid $l.Y)}}" class="bandtext">{{.Text}}</text>{{end}}</a>
{{end}}{{range $l.Ticks}}<a{{with .Href}} href="{{.}}"{{end}}>{{if .CouldNot}}<rect x="{{f .X}}" y="{{f (add $l.Y 2)}}" width="{{f .W}}" height="20" class="cnr"><title>{{.Title}}</title></rect><text x="{{f .GlyphX}}" y="{{f (mid $l.Y)}}" class="cnrglyph">✕<title>{{.Title}}</title></text>{{else}}<rect x="{{f .X}}" y="{{f (add $l.Y 6)}}" width="{{f .W}}" height="12" class="tick"><title>{{.Title}}</title></rect>{{end}}</a>
{{end}}{{end}}{{range $m := .Marks}}<a{{with .Href}} href="{{.}}"{{end}}><line x1="{{f .X}}" x2="{{f .X}}" y1="{{f .LabelY}}" y2="{{f (add $.PlotTop $.PlotH)}}" class="change"/>{{range .Hits}}<rect x="{{f (add $m.X -2)}}" y="{{f (add . 2)}}" width="4" height="20" class="hit"/>{{end}}<text x="{{f .X}}" y="{{f .LabelY}}" class="changelabel {{.Anchor}}">{{.Label}}</text><title>{{.Title}}</title></a>
{{end}}{{range .Axis}}<text x="{{f .X}}" y="{{f (add (add $.PlotTop $.PlotH) 14)}}" class="axis {{.Anchor}}">{{.Text}}</text>
{{end}}</svg></div>
</figure>
{{with .Changes}}<h3>Changes</h3>
<table class="summary atlas"><thead><tr><th>first version</th>{{if $.Dated}}<th>released</th>{{end}}<th>last version before</th><th>what changed</th><th>confirmed</th></tr></thead><tbody>
{{range .}}<tr class="first"><th scope="row">{{if .Exact}}<a href="{{.FirstHref}}">{{.First}}</a>{{else}}between <a href="{{.BeforeHref}}">{{.Before}}</a> and <a href="{{.FirstHref}}">{{.First}}</a>{{end}}</th>{{if $.Dated}}<td>{{.Released}}</td>{{end}}<td><a href="{{.BeforeHref}}">{{.Before}}</a></td><td>{{range .What}}{{.}}<br>{{end}}</td><td>{{.Status}}</td></tr>
{{end}}</tbody></table>
{{end}}{{with .CouldNotRun}}<h3>Could not run</h3>
<ul class="cnr">{{range .}}<li><span class="cnr">✕</span> {{if .Href}}<a{{with .Href}} href="{{.}}"{{end}}>{{.Version}}</a>{{else}}{{.Version}}{{end}}: {{.Reason}}</li>
{{end}}</ul>
{{end}}`

// atlasStyle adds the timeline's rules to the report page's.
const atlasStyle = template.CSS(`figure.atlas svg{min-width:900px}
svg text.lanename{text-anchor:end;font-weight:600}
svg text.bandtext{pointer-events:none}
svg .band{stroke:#fff;stroke-width:1}
svg .v0{fill:#c3dafe}svg .v1{fill:#fbd38d}svg .v2{fill:#9ae6b4}svg .v3{fill:#fed7e2}svg .v4{fill:#e9d8fd}svg .v5{fill:#e2e8f0}
svg .tick,span.tick{fill:var(--kept);color:var(--kept)}
svg .cnr{fill:url(#hatch);stroke:#9b2c2c;stroke-width:.5}
svg text.cnrglyph{text-anchor:middle;font-size:14px;font-weight:700;fill:#9b2c2c}
span.cnr{color:#9b2c2c;font-weight:700}
svg .change{stroke:var(--ink);stroke-width:1.5}
svg .hit{fill:var(--ink)}
svg .span{fill:#edf2f7}
svg text.changelabel{font-weight:700}
svg text.middle{text-anchor:middle}
svg text.axis{fill:var(--muted)}
ul.cnr{padding-left:1em;list-style:none}`)
