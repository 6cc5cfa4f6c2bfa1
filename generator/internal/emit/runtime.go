package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/generator/internal/names"
)

// This file is the one table of what generated code uses of the runtime:
// every runtime package it imports and every qualified identifier it
// names. Moving a helper from one runtime package to another changes its
// row here and nothing else in the emitter. (Methods are reached through
// the values these types give, and move with their types.)

// rtPackage is a runtime package generated code imports, with the name it
// is imported by unless a user's package-level name takes it.
type rtPackage struct{ path, name string }

// mcprtPkg is the runtime users import: tools, results, and for now the
// decoder, checks and encoder generated code calls.
var mcprtPkg = rtPackage{names.RuntimePath, "mcprt"}

// runtimePackages are the runtime packages generated code may import.
var runtimePackages = []rtPackage{mcprtPkg}

// rtIdent is one qualified identifier of the runtime.
type rtIdent struct {
	pkg  rtPackage
	name string
}

// qual is the identifier, qualified by its package's import name.
func (r rtIdent) qual() *jen.Statement { return jen.Qual(r.pkg.path, r.name) }

// What tool lists, descriptors and handlers use.
var (
	rtVersion      = rtIdent{mcprtPkg, names.VersionGuard}
	rtTool         = rtIdent{mcprtPkg, "Tool"}
	rtResult       = rtIdent{mcprtPkg, "Result"}
	rtHints        = rtIdent{mcprtPkg, "Hints"}
	rtBool         = rtIdent{mcprtPkg, "Bool"}
	rtIcon         = rtIdent{mcprtPkg, "Icon"}
	rtTaskOptional = rtIdent{mcprtPkg, "TaskOptional"}
	rtTaskRequired = rtIdent{mcprtPkg, "TaskRequired"}
	rtErrorResult  = rtIdent{mcprtPkg, "ErrorResult"}
	rtTextResult   = rtIdent{mcprtPkg, "TextResult"}
)

// What decoders and their checks use.
var (
	rtDecoder       = rtIdent{mcprtPkg, "Decoder"}
	rtAlloc         = rtIdent{mcprtPkg, "Alloc"}
	rtGrow          = rtIdent{mcprtPkg, "Grow"}
	rtNonNil        = rtIdent{mcprtPkg, "NonNil"}
	rtMapZero       = rtIdent{mcprtPkg, "MapZero"}
	rtNewMap        = rtIdent{mcprtPkg, "NewMap"}
	rtBounds        = rtIdent{mcprtPkg, "Bounds"}
	rtCheckBounds   = rtIdent{mcprtPkg, "CheckBounds"}
	rtCheckLength   = rtIdent{mcprtPkg, "CheckLength"}
	rtCheckFormatOf = rtIdent{mcprtPkg, "CheckFormatOf"}
	rtCheckPattern  = rtIdent{mcprtPkg, "CheckPattern"}
	rtCheckItems    = rtIdent{mcprtPkg, "CheckItems"}
	rtCheckUnique   = rtIdent{mcprtPkg, "CheckUnique"}
	rtQuote         = rtIdent{mcprtPkg, "Quote"}
)

// What result encoders use.
var (
	rtEncoder      = rtIdent{mcprtPkg, "Encoder"}
	rtAppendString = rtIdent{mcprtPkg, "AppendString"}
	rtSortedKeys   = rtIdent{mcprtPkg, "SortedKeys"}
	rtIsEmptyValue = rtIdent{mcprtPkg, "IsEmptyValue"}
	rtIsZeroValue  = rtIdent{mcprtPkg, "IsZeroValue"}
)
