package annotations

import (
	"go/token"
	"regexp"
	"slices"
	"unicode"
)

// ParseTag reads the mcp key of a struct tag. lit is the tag literal
// exactly as in ast.BasicLit.Value (backquoted or double-quoted) and pos is
// its position. ok is false when there is no mcp key.
//
// Error positions point at the offending key inside the literal. They are
// exact even through escapes in a double-quoted literal, as far as the
// escapes map bytes one to one.
func ParseTag(pos token.Pos, lit string) (tag Tag, ok bool, errs []Error) {
	tagText, outer, valid := unquoteOffsets(lit)
	if !valid {
		return Tag{}, false, []Error{errorf(pos, "bad struct tag literal")}
	}
	start, end, found := lookupTag(tagText, "mcp")
	if !found {
		return Tag{}, false, nil
	}
	tag.Pos = pos + token.Pos(outer[start])
	value, inner, valid := unquoteOffsets(tagText[start:end])
	if !valid {
		return Tag{}, false, []Error{errorf(tag.Pos, "bad quoted value for the mcp key of the struct tag")}
	}
	at := func(off int) token.Pos { return pos + token.Pos(outer[start+inner[off]]) }
	args, lexErrs := lexTag(value, at)
	keys := keyNames(tagKeys)
	args, lexErrs = cutValues(args, keys, lexErrs)
	d := newDecoder(lexErrs)
	d.apply(args, keys, func(a arg) bool { return tag.set(d, a) })
	tag.check(d)
	return tag, true, d.result()
}

// cutValues finds items that are not keys but the rest of the value
// before them, cut at an unquoted comma (pattern=^[a-z]{1,3}$ reads as
// pattern=^[a-z]{1 and a key "3}$"). It reports each such run once, at
// its first piece, showing the value quoted, and returns args without the
// pieces. A piece counts when it is no valid key and either is no
// identifier or is one without a value that resembles no key (a typo of
// a key gets the usual "did you mean").
func cutValues(args []arg, valid []string, errs []Error) ([]arg, []Error) {
	var out []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if !a.hasValue || a.quoted {
			continue
		}
		whole := a.value
		j := i + 1
		for ; j < len(args) && isValuePiece(args[j], valid); j++ {
			whole += "," + args[j].lead + args[j].text()
		}
		if j == i+1 {
			continue
		}
		errs = append(errs, errorf(args[i+1].pos, "%q is no key but the rest of the value of %s after a comma: write a value holding a comma in single quotes, as %s='%s'", args[i+1].text(), a.key, a.key, whole))
		i = j - 1
	}
	return out, errs
}

// isValuePiece reports whether a looks like part of a value rather than a
// key, by the rule of cutValues.
func isValuePiece(a arg, valid []string) bool {
	if slices.Contains(valid, a.key) {
		return false
	}
	if !isKeyWord(a.key) {
		return true
	}
	return !a.hasValue && didYouMean(a.key, valid) == ""
}

// isKeyWord reports whether s is spelt as keys are: letters and digits.
func isKeyWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return false
		}
	}
	return s != ""
}

// set stores one key of the tag or of //mcp:param; it is a single switch
// over the keys.
func (t *Tag) set(d *decoder, a arg) bool {
	switch a.key {
	case "required":
		d.boolean(a, &t.Required)
	case "optional":
		d.boolean(a, &t.Optional)
	case "uniqueItems":
		d.boolean(a, &t.UniqueItems)
	case "noenum":
		d.boolean(a, &t.NoEnum)
	case "enum":
		d.list(a, &t.Enum, "|")
	case "desc", "description":
		t.setDesc(d, a)
	case "title":
		d.str(a, &t.Title)
	case "default":
		d.str(a, &t.Default)
	case "format":
		d.str(a, &t.Format)
	case "pattern":
		t.setPattern(d, a)
	case "min":
		d.number(a, &t.Min)
	case "max":
		d.number(a, &t.Max)
	case "exclusiveMin":
		d.number(a, &t.ExclusiveMin)
	case "exclusiveMax":
		d.number(a, &t.ExclusiveMax)
	case "multipleOf":
		d.positive(a, &t.MultipleOf)
	case "minLength":
		d.count(a, &t.MinLength)
	case "maxLength":
		d.count(a, &t.MaxLength)
	case "minItems":
		d.count(a, &t.MinItems)
	case "maxItems":
		d.count(a, &t.MaxItems)
	case "complete":
		d.ident(a, &t.Complete)
	case "header":
		d.token(a, &t.Header)
	case "nolint":
		d.list(a, &t.Nolint, "|")
	default:
		return false
	}
	return true
}

// setDesc stores desc= or its alias description=, which may not both be
// written. Only //mcp:param knows the alias; ParseTag rejects it.
func (t *Tag) setDesc(d *decoder, a arg) {
	other := "description"
	if a.key == other {
		other = "desc"
	}
	if _, dup := d.seen[other]; dup {
		d.errorf(a.pos, `"desc" and "description" cannot both be set`)
		return
	}
	d.str(a, &t.Desc)
}

// setPattern stores pattern=, which must compile as a Go regexp.
func (t *Tag) setPattern(d *decoder, a arg) {
	if !d.needValue(a) {
		return
	}
	if _, err := regexp.Compile(a.value); err != nil {
		d.errorf(a.pos, "bad pattern %q: %v", a.value, err)
		return
	}
	d.str(a, &t.Pattern)
}

// check reports keys that contradict each other, at the key written last.
func (t *Tag) check(d *decoder) {
	if t.Required.Value && t.Optional.Value {
		d.errorf(later(t.Required.Pos, t.Optional.Pos), `"required" and "optional" cannot both be set`)
	}
	checkNumbers(d, "min", t.Min, "max", t.Max)
	checkNumbers(d, "exclusiveMin", t.ExclusiveMin, "exclusiveMax", t.ExclusiveMax)
	checkInts(d, "minLength", t.MinLength, "maxLength", t.MaxLength)
	checkInts(d, "minItems", t.MinItems, "maxItems", t.MaxItems)
}

// checkNumbers reports a lower bound greater than an upper bound.
func checkNumbers(d *decoder, loName string, lo Number, hiName string, hi Number) {
	if lo.Set && hi.Set && lo.Value > hi.Value {
		d.errorf(later(lo.Pos, hi.Pos), "%s %s is greater than %s %s", loName, lo.Text, hiName, hi.Text)
	}
}

// checkInts reports a lower bound greater than an upper bound.
func checkInts(d *decoder, loName string, lo Int, hiName string, hi Int) {
	if lo.Set && hi.Set && lo.Value > hi.Value {
		d.errorf(later(lo.Pos, hi.Pos), "%s %d is greater than %s %d", loName, lo.Value, hiName, hi.Value)
	}
}
