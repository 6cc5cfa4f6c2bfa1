// Package generator is mcpgen's engine: it loads Go packages, analyzes their
// //mcp: annotations into a model, computes schemas, and emits one Go file
// per package. Generate is pure (it returns contents and diagnostics);
// Write commits the contents to disk only when no error was found.
//
// The engine is internal: the mcpgen command (Main) and the mcpcheck
// Analyzer are its public faces, so its types can change with the stages.
package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/mcpgen/mcpgen/internal/jsonx"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/generator/internal/analyze"
	"github.com/mcpgen/mcpgen/internal/generator/internal/apidiff"
	"github.com/mcpgen/mcpgen/internal/generator/internal/diag"
	"github.com/mcpgen/mcpgen/internal/generator/internal/doc"
	"github.com/mcpgen/mcpgen/internal/generator/internal/emit"
	"github.com/mcpgen/mcpgen/internal/generator/internal/lint"
	"github.com/mcpgen/mcpgen/internal/generator/internal/load"
	"github.com/mcpgen/mcpgen/internal/generator/internal/model"
	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
	"github.com/mcpgen/mcpgen/internal/generator/internal/schema"
	"github.com/mcpgen/mcpgen/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"github.com/mcpgen/mcpgen/runtime/mcprt"
)

// DefaultOutput is the default name of the generated file.
const DefaultOutput = names.DefaultFile

// Config says what to generate.
type Config struct {
	Dir      string   // working directory; patterns and printed paths are relative to it
	Patterns []string // package patterns; "." when empty
	Output   string   // generated file name; DefaultOutput when empty
	Strict   bool     // warnings count as errors
	// Portable publishes input schemas in the portable form (see
	// lint.Portable).
	Portable bool
	// OneServer is the flag (-list, -doc, -diff) under which the run
	// prints its packages as one server, so that a name two of them
	// declare is an error; "" when packages are generated each apart,
	// and only those a package imports together are one server's.
	OneServer string
	// Card reads each package's Server Card instead of generating (see
	// -card); the files returned carry it and no content.
	Card bool
	// hook, when set by a test, is called at each position the generator
	// processes, with the stage's name; a test makes it panic to check
	// that internal errors are recovered and reported.
	hook func(stage string)
}

// File is the generated file of one package, or a stale one to remove.
type File struct {
	Path    string // absolute path
	Content []byte // nil: the package has no tools and the file is to be removed
	// The descriptors of what the file serves, for -list; their functions
	// are nil.
	Tools     []mcprt.Tool
	Prompts   []mcprt.Prompt
	Resources []mcprt.Resource
	Skills    []mcprt.Skill // their files hold the bytes go generate read
	Groups    []mcprt.Group
	// models are the analyzed tools behind Tools, in the same order, for
	// positioning what -lint finds at the Go source.
	models []*model.Tool
	// pkg is the analyzed package, for what is checked across packages.
	pkg *model.Package
	// card is the package's Server Card, read under Config.Card.
	card *model.Card
}

// Generate loads and analyzes the packages and returns the files to write.
// Files are returned only when there are no errors.
func Generate(cfg Config) (files []File, diags Diagnostics) {
	defer func() {
		if r := recover(); r != nil { // a bug in mcpgen outside any package
			files, diags = nil, append(diags, Diagnostic{Msg: internalError("load", r)})
		}
	}()
	if cfg.Output == "" {
		cfg.Output = DefaultOutput
	}
	if cfg.hook != nil {
		cfg.hook("load")
	}
	fset, pkgs, err := load.Packages(load.Config{Dir: cfg.Dir, Patterns: cfg.Patterns, Output: cfg.Output})
	if err != nil {
		return nil, Diagnostics{{Msg: err.Error()}}
	}
	for _, p := range pkgs {
		f, ds := generatePackage(cfg, p, fset)
		diags = append(diags, ds...)
		if f != nil {
			files = append(files, *f)
		}
	}
	diags = append(diags, analyze.Duplicates(servedTogether(cfg, pkgs, files), func(p token.Position) string { return diag.Where(p, cfg.Dir) })...)
	if cfg.Strict {
		for i := range diags {
			diags[i].Warning = false
		}
	}
	diags = diags.Sorted()
	if diags.HasErrors() {
		return nil, diags
	}
	return files, diags
}

// servedTogether returns the packages of the run that one server serves
// together: all of them under cfg.OneServer, else those that a package of
// the run imports together, with itself when it is annotated (a main
// package registering them, as a go:generate line at the root loads it).
func servedTogether(cfg Config, pkgs []*load.Package, files []File) []analyze.Server {
	var all []*model.Package
	byPath := map[string]*model.Package{}
	for _, f := range files {
		if f.pkg != nil {
			all = append(all, f.pkg)
			byPath[f.pkg.Path] = f.pkg
		}
	}
	if cfg.OneServer != "" {
		why := cfg.OneServer + " prints the packages of the run as one server (run it on each server's packages apart)"
		return []analyze.Server{{Packages: all, Why: func(_, _ *model.Package) string { return why }}}
	}
	var out []analyze.Server
	for _, p := range pkgs {
		var members []*model.Package
		if m := byPath[p.Path]; m != nil {
			members = append(members, m)
		}
		for _, imp := range p.Imports {
			if m := byPath[imp]; m != nil {
				members = append(members, m)
			}
		}
		if len(members) < 2 {
			continue
		}
		importer := p.Path
		out = append(out, analyze.Server{Packages: members, Why: func(a, b *model.Package) string {
			switch importer {
			case a.Path:
				return "package " + a.Path + " imports package " + b.Path
			case b.Path:
				return "package " + b.Path + " imports package " + a.Path
			}
			return "package " + importer + " imports both"
		}})
	}
	return out
}

// internalError is the message of a recovered panic: a bug in mcpgen.
func internalError(stage string, r any) string {
	return fmt.Sprintf("internal error in %s: %v (this is a bug in mcpgen; please report it)", stage, r)
}

// generatePackage runs one package through the stages and turns a panic in
// any of them into an internal error at the position being processed.
func generatePackage(cfg Config, p *load.Package, fset *token.FileSet) (f *File, diags Diagnostics) {
	var at token.Position
	stage := "analyze"
	if len(p.GoFiles) > 0 {
		at.Filename = p.GoFiles[0]
	}
	progress := func(s string) func(token.Position) {
		return func(pos token.Position) {
			at, stage = pos, s
			if cfg.hook != nil {
				cfg.hook(s)
			}
		}
	}
	defer func() {
		if r := recover(); r != nil {
			f, diags = nil, Diagnostics{{Pos: at, Msg: internalError(stage, r)}}
		}
	}()
	return runStages(cfg, p, fset, progress)
}

// runStages runs analyze, schema and emit for one package. It returns a nil
// file when the package neither has tools nor a stale generated file.
func runStages(cfg Config, p *load.Package, fset *token.FileSet, progress func(string) func(token.Position)) (*File, Diagnostics) {
	diags := slices.Clone(p.Errors)
	if p.Types == nil || p.Dir == "" {
		return nil, diags
	}
	genPath := filepath.Join(p.Dir, cfg.Output)
	in := analyze.Input{Fset: fset, Files: p.Syntax, Pkg: p.Types, Info: p.Info,
		Dir: p.Dir, GenFile: genPath, EmbedFiles: p.EmbedFiles, ReadFile: load.ReadFile, Local: p.Local, Progress: progress("analyze")}
	m, ds := analyze.Package(in)
	diags = append(diags, ds...)
	if cfg.Card {
		return readCard(in, diags)
	}
	if m == nil {
		if load.IsGenerated(genPath) {
			return &File{Path: genPath}, diags
		}
		return nil, diags
	}
	if diags.HasErrors() {
		return nil, diags
	}
	schemas := schema.Package(m, progress("schema"))
	if cfg.Portable {
		if err := portable(m, schemas); err != nil {
			return nil, append(diags, *err)
		}
	}
	tools := runtimeTools(m, schemas)
	index, err := searchIndex(m, tools)
	if err != nil {
		return nil, append(diags, *err)
	}
	src, err2 := emit.File(m, schemas, emit.Config{EnforcesFormat: mcpimpl.EnforcesFormat, SearchIndex: index, Progress: progress("emit")})
	if err2 != nil {
		return nil, append(diags, Diagnostic{Msg: err2.Error()})
	}
	return &File{Path: genPath, Content: src, Tools: tools, Prompts: runtimePrompts(m), Resources: runtimeResources(m),
		Skills: runtimeSkills(m), Groups: runtimeGroups(m), models: m.Tools, pkg: m}, diags
}

// portable rewrites the input schema of each tool of m in the portable
// form.
func portable(m *model.Package, schemas *schema.Set) *Diagnostic {
	for _, t := range m.Tools {
		p, err := lint.Portable(schemas.Tool(t).Input)
		if err != nil { // an input= file is checked to be JSON when it is read: a bug
			return &Diagnostic{Pos: t.Pos, Msg: internalError("portable", err)}
		}
		schemas.SetInput(t, p)
	}
	return nil
}

// runtimeTools builds the descriptors of a package's tools, for -list.
func runtimeTools(m *model.Package, schemas *schema.Set) []mcprt.Tool {
	var tools []mcprt.Tool
	for _, t := range m.Tools {
		s := schemas.Tool(t)
		tools = append(tools, mcprt.Tool{
			Name: string(t.Name), Title: t.Title, Description: t.Description,
			InputSchema: s.Input, OutputSchema: s.Output, WrapOutput: s.Output != nil && s.Wrap,
			Hints:       mcprt.Hints(t.Hints),
			Icons:       icons(t.Icons),
			TaskSupport: mcprt.TaskSupport(t.TaskSupport),
			UI:          toolUI(t.UI),
			Scopes:      t.Scopes,
			Groups:      t.Groups,
			Pin:         t.Pin,
		})
	}
	return tools
}

// runtimePrompts builds the descriptors of a package's prompts, for -list.
func runtimePrompts(m *model.Package) []mcprt.Prompt {
	var prompts []mcprt.Prompt
	for _, p := range m.Prompts {
		rp := mcprt.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Icons: icons(p.Icons), Scopes: p.Scopes, Groups: p.Groups}
		for _, f := range p.Input.Fields {
			rp.Arguments = append(rp.Arguments, mcprt.PromptArgument{Name: f.WireName, Title: f.Constraints.Title, Description: f.ArgumentDescription(), Required: f.Required})
		}
		prompts = append(prompts, rp)
	}
	return prompts
}

// runtimeResources builds the descriptors of a package's resources and
// templates, for -list.
func runtimeResources(m *model.Package) []mcprt.Resource {
	var resources []mcprt.Resource
	for _, r := range m.Resources {
		rr := mcprt.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size, Icons: icons(r.Icons), UI: resourceUI(r.UI), Scopes: r.Scopes, Groups: r.Groups}
		if len(r.Audience) > 0 || r.Priority != "" {
			rr.Annotations = &mcprt.Annotations{Audience: r.Audience}
			if r.Priority != "" {
				pr, _ := strconv.ParseFloat(r.Priority, 64) // checked by the parser
				rr.Annotations.Priority = &pr
			}
		}
		resources = append(resources, rr)
	}
	return resources
}

// runtimeSkills builds the skills of a package, for -list: their files
// hold the bytes read now.
func runtimeSkills(m *model.Package) []mcprt.Skill {
	if m.Skills == nil {
		return nil
	}
	var skills []mcprt.Skill
	for _, s := range m.Skills.List {
		sk := mcprt.Skill{Path: s.Path, Frontmatter: s.Frontmatter, Scopes: m.Skills.Scopes}
		for _, f := range s.Files {
			sk.Files = append(sk.Files, mcprt.NewSkillFile(f.Path, f.Data))
		}
		skills = append(skills, sk)
	}
	return skills
}

func toolUI(ui *model.ToolUI) *mcprt.ToolUI {
	if ui == nil {
		return nil
	}
	return &mcprt.ToolUI{ResourceURI: ui.ResourceURI, Visibility: ui.Visibility}
}

func resourceUI(ui *model.ResourceUI) *mcprt.ResourceUI {
	if ui == nil {
		return nil
	}
	return &mcprt.ResourceUI{ConnectDomains: ui.ConnectDomains, ResourceDomains: ui.ResourceDomains, FrameDomains: ui.FrameDomains,
		BaseURIDomains: ui.BaseURIDomains, Permissions: ui.Permissions, Domain: ui.Domain, PrefersBorder: ui.PrefersBorder}
}

func icons(ics []model.Icon) []mcprt.Icon {
	var out []mcprt.Icon
	for _, ic := range ics {
		out = append(out, mcprt.Icon{Src: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: ic.Theme})
	}
	return out
}

// Write writes each file whose content differs from what is on disk and
// removes stale generated files. It returns the paths it changed.
func Write(files []File) ([]string, error) {
	var changed []string
	for _, f := range files {
		old, err := os.ReadFile(f.Path)
		switch {
		case f.Content == nil:
			if err := os.Remove(f.Path); err != nil {
				return changed, err
			}
		case err == nil && bytes.Equal(old, f.Content):
			continue
		default:
			if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
				return changed, err
			}
		}
		changed = append(changed, f.Path)
	}
	return changed, nil
}

// Stale returns the files whose content on disk differs from what would be
// generated, is missing, or is a stale file to remove.
func Stale(files []File) []string {
	var stale []string
	for _, f := range files {
		old, err := os.ReadFile(f.Path)
		if f.Content == nil || err != nil || !bytes.Equal(old, f.Content) {
			stale = append(stale, f.Path)
		}
	}
	return stale
}

// comma separates the next element of a list being written.
func comma(list []byte) []byte {
	if len(list) == 0 {
		return list
	}
	return append(list, ',')
}

// ScopesMeta is the _meta key under which -list shows the scope= of a
// tool, prompt or resource. Servers never publish scopes in descriptors;
// the listing shows them so that -doc and readers see what each needs.
const ScopesMeta = "mcpgen/scopes"

// scopesMeta is the _meta object {"mcpgen/scopes":[...]}, or nil when
// there are no scopes. The generator's descriptors carry no Meta of their
// own, so it is theirs; the wire merges _meta.ui into it.
func scopesMeta(scopes []string) []byte {
	if len(scopes) == 0 {
		return nil
	}
	meta := []byte(`{"` + ScopesMeta + `":[`)
	for i, s := range scopes {
		if i > 0 {
			meta = append(meta, ',')
		}
		meta = jsonx.AppendString(meta, s)
	}
	return append(meta, "]}"...)
}

// withScopes adds the _meta of scopes (see scopesMeta) to the JSON object
// at the end of list, one that has no _meta of its own: a skill's entry.
func withScopes(list []byte, scopes []string) []byte {
	meta := scopesMeta(scopes)
	if meta == nil {
		return list
	}
	list = append(list[:len(list)-1], `,"_meta":`...)
	return append(append(list, meta...), '}')
}

// listTool appends t's descriptor as -list shows it: the latest
// revision's, with its scopes under _meta and its task support as
// 2025-11-25 publishes it, execution.taskSupport. The latest revision
// has no per-tool task support, but a change of it breaks the clients of
// 2025-11-25, so -diff and -doc need it. Forbidden, the default, is left
// out, as 2025-11-25 leaves it out.
func listTool(dst []byte, t *mcprt.Tool) []byte {
	lt := *t
	lt.Meta = scopesMeta(t.Scopes)
	dst = wire.AppendTool(dst, &lt, wire.LatestRevision)
	if t.TaskSupport == mcprt.TaskOptional || t.TaskSupport == mcprt.TaskRequired {
		dst = append(dst[:len(dst)-1], `,"execution":{"taskSupport":"`+string(t.TaskSupport)+`"}}`...)
	}
	return dst
}

// List returns what the packages would serve, for the latest revision, as
// indented JSON: the tools/list result, with the lists of prompts,
// resources, resource templates, skills (the entries of skills/list, with
// the digests of the files as go generate read them) and groups beside
// "tools" when there are any. Each lists its groups in _meta, as a server
// serving groups does. Scopes show under _meta, as ScopesMeta says, and
// task support as listTool says.
func List(files []File) ([]byte, error) {
	var tools, prompts, resources, templates, skills, groups []byte
	var all []mcprt.Group
	for _, f := range files {
		all = append(all, f.Groups...)
		for i := range f.Tools {
			tools = listTool(comma(tools), &f.Tools[i])
		}
		for i := range f.Prompts {
			p := f.Prompts[i]
			p.Meta = scopesMeta(p.Scopes)
			prompts = wire.AppendPrompt(comma(prompts), &p, wire.LatestRevision)
		}
		for i := range f.Resources {
			r := f.Resources[i]
			r.Meta = scopesMeta(r.Scopes)
			if wire.IsTemplate(r.URI) {
				templates = wire.AppendResourceTemplate(comma(templates), &r, wire.LatestRevision)
			} else {
				resources = wire.AppendResource(comma(resources), &r, wire.LatestRevision)
			}
		}
		if len(f.Skills) > 0 {
			set, err := wire.NewSkills(f.Skills)
			if err != nil { // checked by the analysis: a bug
				return nil, fmt.Errorf("internal error: %v", err)
			}
			for i := range set.Len() {
				entry, _, _ := set.AppendPage(nil, i, 1)
				skills = withScopes(append(comma(skills), entry...), f.Skills[0].Scopes)
			}
		}
	}
	for _, g := range wire.MergeGroups(all) {
		groups = wire.AppendGroup(comma(groups), &g, wire.LatestRevision)
	}
	buf := append(append([]byte(`{"tools":[`), tools...), ']')
	for _, l := range []struct {
		key  string
		list []byte
	}{{"prompts", prompts}, {"resources", resources}, {"resourceTemplates", templates}, {"skills", skills}, {"groups", groups}} {
		if l.list != nil {
			buf = append(append(append(buf, `,"`+l.key+`":[`...), l.list...), ']')
		}
	}
	buf = append(buf, '}')
	var out bytes.Buffer
	if err := json.Indent(&out, buf, "", "  "); err != nil {
		return nil, fmt.Errorf("internal error: tools/list is not JSON: %v", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// Doc returns Markdown reference documentation of what the packages would
// serve: every tool, prompt, resource and resource template, as -list
// lists them.
func Doc(files []File) ([]byte, error) {
	list, err := List(files)
	if err != nil {
		return nil, err
	}
	return doc.Markdown(list)
}

// Diff compares old, a saved -list output, with what the packages would
// serve, and returns each change, breaking clients or compatible.
func Diff(old []byte, files []File) ([]apidiff.Change, error) {
	list, err := List(files)
	if err != nil {
		return nil, err
	}
	return apidiff.Compare(old, list)
}
