package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/generator/internal/names"
)

// This file is the one table of what generated code uses of the runtime:
// every runtime package it imports and every qualified identifier it
// names. Moving a helper from one runtime package to another changes its
// row here and nothing else in the emitter. (Methods are reached through
// the values these types give, and move with their types.)

// rtPackage is a runtime package generated code imports, with the name it
// is imported by unless a user's package-level name takes it.
type rtPackage struct{ path, name string }

// mcprtPkg is the runtime users import: tools, results, prompts and
// resources.
var mcprtPkg = rtPackage{names.RuntimePath, "mcprt"}

// implPkg is the runtime only generated code calls: the decoder, checks
// and encoder, and the version guard.
var implPkg = rtPackage{names.ImplPath, "mcpimpl"}

// runtimePackages are the runtime packages generated code may import.
var runtimePackages = []rtPackage{mcprtPkg, implPkg}

// rtIdent is one qualified identifier of the runtime.
type rtIdent struct {
	pkg  rtPackage
	name string
}

// qual is the identifier, qualified by its package's import name.
func (r rtIdent) qual() *jen.Statement { return jen.Qual(r.pkg.path, r.name) }

// What tool lists, descriptors and handlers use.
var (
	rtVersion      = rtIdent{implPkg, names.VersionGuard}
	rtTool         = rtIdent{mcprtPkg, "Tool"}
	rtResult       = rtIdent{mcprtPkg, "Result"}
	rtHints        = rtIdent{mcprtPkg, "Hints"}
	rtIcon         = rtIdent{mcprtPkg, "Icon"}
	rtTaskOptional = rtIdent{mcprtPkg, "TaskOptional"}
	rtTaskRequired = rtIdent{mcprtPkg, "TaskRequired"}
	rtErrorResult  = rtIdent{mcprtPkg, "ErrorResult"}
	rtCallError    = rtIdent{implPkg, "CallError"}
	rtTextResult   = rtIdent{mcprtPkg, "TextResult"}
	rtStructured   = rtIdent{mcprtPkg, "Structured"}
	rtWithText     = rtIdent{implPkg, "WithText"}
)

// What prompt and resource lists and their functions use.
var (
	rtPrompt           = rtIdent{mcprtPkg, "Prompt"}
	rtPromptArgument   = rtIdent{mcprtPkg, "PromptArgument"}
	rtPromptResult     = rtIdent{mcprtPkg, "PromptResult"}
	rtPromptMessage    = rtIdent{mcprtPkg, "PromptMessage"}
	rtResource         = rtIdent{mcprtPkg, "Resource"}
	rtGroup            = rtIdent{mcprtPkg, "Group"}
	rtSearchIndex      = rtIdent{mcprtPkg, "SearchIndex"}
	rtSearchTerm       = rtIdent{mcprtPkg, "SearchTerm"}
	rtResourceContents = rtIdent{mcprtPkg, "ResourceContents"}
	rtAnnotations      = rtIdent{mcprtPkg, "Annotations"}
	rtToolUI           = rtIdent{mcprtPkg, "ToolUI"}
	rtResourceUI       = rtIdent{mcprtPkg, "ResourceUI"}
	rtTemplate         = rtIdent{implPkg, "Template"}
	rtTemplatePart     = rtIdent{implPkg, "TemplatePart"}
	rtStringArgs       = rtIdent{implPkg, "StringArgs"}
	rtErrNotFound      = rtIdent{mcprtPkg, "ErrNotFound"}
	rtFloat            = rtIdent{implPkg, "Float"}
	rtNotFound         = rtIdent{implPkg, "NotFound"}
	rtPromptText       = rtIdent{implPkg, "PromptText"}
	rtTextContents     = rtIdent{implPkg, "TextContents"}
	rtBlobContents     = rtIdent{implPkg, "BlobContents"}
	rtCompleteFrom     = rtIdent{implPkg, "CompleteFrom"}
	rtSkill            = rtIdent{mcprtPkg, "Skill"}
	rtSkills           = rtIdent{implPkg, "Skills"}
)

// What decoders and their checks use.
var (
	rtDecoder       = rtIdent{implPkg, "Decoder"}
	rtAlloc         = rtIdent{implPkg, "Alloc"}
	rtGrow          = rtIdent{implPkg, "Grow"}
	rtNonNil        = rtIdent{implPkg, "NonNil"}
	rtMapZero       = rtIdent{implPkg, "MapZero"}
	rtNewMap        = rtIdent{implPkg, "NewMap"}
	rtBounds        = rtIdent{implPkg, "Bounds"}
	rtCheckBounds   = rtIdent{implPkg, "CheckBounds"}
	rtCheckLength   = rtIdent{implPkg, "CheckLength"}
	rtCheckFormatOf = rtIdent{implPkg, "CheckFormatOf"}
	rtCheckPattern  = rtIdent{implPkg, "CheckPattern"}
	rtCheckItems    = rtIdent{implPkg, "CheckItems"}
	rtCheckUnique   = rtIdent{implPkg, "CheckUnique"}
	rtCheckUniqueJS = rtIdent{implPkg, "CheckUniqueJSON"}
	rtQuote         = rtIdent{implPkg, "Quote"}
)

// What generated clients use.
var (
	clientPkg       = rtPackage{names.ClientPath, "mcpclient"}
	sdkPkg          = rtPackage{names.SDKPath, "mcp"}
	rtClientVersion = rtIdent{clientPkg, names.ClientVersionGuard}
	rtClientSession = rtIdent{sdkPkg, "ClientSession"}
	rtCallTool      = rtIdent{clientPkg, "CallTool"}
	rtGetPrompt     = rtIdent{clientPkg, "GetPrompt"}
	rtReadResource  = rtIdent{clientPkg, "ReadResource"}
	rtSegment       = rtIdent{clientPkg, "Segment"}
	rtReserved      = rtIdent{clientPkg, "Reserved"}
)

// What result encoders use.
var (
	rtEncoder      = rtIdent{implPkg, "Encoder"}
	rtAppendString = rtIdent{implPkg, "AppendString"}
	rtSortedKeys   = rtIdent{implPkg, "SortedKeys"}
	rtIsEmptyValue = rtIdent{implPkg, "IsEmptyValue"}
	rtIsZeroValue  = rtIdent{implPkg, "IsZeroValue"}
)
