// The explanation of every diagnostic id (format: check_explanations.h). Rows follow the order
// of the catalog in diagnostic_ids.cpp; a new family adds ONE block at the end of the table.
#include "core/diag/check_explanations.h"

namespace rigscope::core {

namespace {
constexpr CheckExplanation kExplanations[] = {
    // ---- syntax.* (catalog) ----
    {"syntax.empty-file", "the file is empty or holds only blanks and comments",
     "The file has no bytes, or nothing but whitespace and comment lines: no `version`, no "
     "block, no data.",
     "There is no model to compile: studiomdl stops with an error about a missing `version` or "
     "`nodes` block, and the CoD tools refuse the export. Usually the exporter crashed or the "
     "file was truncated to zero on a full disk.",
     "None: any empty file, in every profile.", "(a file of 0 bytes, or only `// comment` lines)",
     "Export the model again from the modelling "
     "tool and check that the exporter reported no error."},
    {"syntax.bad-version", "the `version` line is missing or names a version the profile rejects",
     "The first statement is not `version N` with an N the profile's compiler accepts, or a "
     "BinarySMD file's version byte is not 1.",
     "GoldSrc studiomdl accepts only version 1 and stops on anything else. Source studiomdl from "
     "the 2013 SDK also reads version 2 (material names then keep their path), the 2006 tools do "
     "not. The CoD tools and PyCoD read only the versions they know (XMODEL_EXPORT 5, 6 and 7, "
     "XANIM_EXPORT 3) and stop otherwise.",
     "goldsrc: 1 (HL SDK studiomdl.c). source: 1, and 2 as a warning (SDK 2013 `Load_SMD` only). "
     "source256: 1 and 2. cod: XMODEL_EXPORT 5, 6, 7 and XANIM_EXPORT 3 (PyCoD). BinarySMD: "
     "version byte 1.",
     "version 3\nnodes\n0 \"root\" -1\nend",
     "Export with version 1 (every SMD exporter can), or select the profile of the compiler you "
     "really use."},
    {"syntax.unknown-block", "a top-level keyword or block the format does not define",
     "A line at the top level starts with a word that is not `version`, `nodes`, `skeleton`, "
     "`triangles` or `vertexanimation` (SMD/VTA), or an unknown statement in a CoD export. "
     "RigScope skips it up to its `end`.",
     "studiomdl reports an unknown command or silently skips the block depending on the "
     "version, so whatever the block was meant to carry never reaches the model.",
     "None: any unknown keyword, in every profile.",
     "version 1\nnodes\n0 \"root\" -1\nend\n"
     "bonemerge\n0\nend",
     "Remove the block, or fix the typo in its keyword."},
    {"syntax.missing-end", "a block is still open when the file ends",
     "The file ends inside `nodes`, `skeleton`, `triangles` or `vertexanimation` without its "
     "`end` line. RigScope closes the block and keeps what it read; a note points at the line "
     "that opened it.",
     "studiomdl reads `nodes` and `skeleton` until `end` and fails with an unexpected end of "
     "file; in `triangles` it stops at the end of the file, so the model compiles but a file "
     "truncated mid-way loses its last triangles without a word.",
     "None: any unterminated block. Error in goldsrc, source and source256 (warning for "
     "`triangles`); CoD files have no `end`, so cod never raises it.",
     "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0",
     "Add the missing `end`; if the file was cut short, export it again."},
    {"syntax.end-not-exact", "an `end` line with spaces or tabs around it",
     "The `end` closing `triangles` has blanks before or after it. For the other blocks "
     "RigScope only notes it.",
     "studiomdl compares the whole raw line with `end` inside `triangles`. A padded `end` is "
     "not recognised: it is read as the material name of one more triangle, and the following "
     "block is swallowed as vertex lines or rejected.",
     "None: any padded `end` of `triangles` (error in goldsrc, source and source256; a note "
     "for other blocks). Source: `IsEnd` in SDK 2013 studiomdl and the GoldSrc loader.",
     "triangles\nskin.bmp\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\n  end",
     "Write `end` alone on its line, without indentation or trailing blanks."},
    {"syntax.keyword-case", "a keyword is spelled in the wrong case",
     "An SMD keyword is not lower-case (`End`, `Triangles`), or a CoD keyword is not upper-case "
     "(`bone`, `Vert`).",
     "Compilers compare keywords byte for byte. GoldSrc studiomdl misses `End` or `Nodes` "
     "entirely and misreads the rest of the file; Source studiomdl compares `end` and `time` "
     "exactly but block names without case. The CoD tools match upper-case tokens only.",
     "goldsrc: every keyword (strcmp in studiomdl.c). source, source256: `end` and `time` "
     "exact (error), block names a note. cod: every keyword upper-case (PyCoD).",
     "version 1\nNodes\n0 \"root\" -1\nEnd",
     "Write the keyword in the exact case the format "
     "uses: lower-case for SMD and VTA, upper-case for CoD exports."},
    {"syntax.unquoted-name", "a bone name on a `nodes` line is not in double quotes",
     "A line of the `nodes` block has its bone name without the surrounding `\"` quotes. "
     "RigScope reads the single token as the name.",
     "studiomdl scans each `nodes` line for a quoted name; when it finds none it takes the "
     "line as the end of the block. Every bone after that line is missing and the vertices "
     "weighted to them fail with unknown bones.",
     "None: every bone line, in every SMD profile. A warning under cod, which has no `nodes` "
     "block but may be fed converted data. Source: GoldSrc studiomdl.c and ep1 studiomdl.cpp "
     "`Grab_Nodes`.",
     "nodes\n0 root -1\n1 \"arm\" 0\nend",
     "Quote every bone name (`0 \"root\" -1`). Exporters always do: a hand edit or a home-made "
     "script usually lost the quotes."},
    {"syntax.bad-number", "a numeric field does not parse, or an integer field holds a decimal",
     "A field the grammar reads as a number is not one (`x`, `1,5`, `1.0.0`), or a field read "
     "as an integer (bone id, parent, link count) holds a decimal such as `1.0`. RigScope "
     "drops the line.",
     "studiomdl reads these lines with `sscanf`. A word stops the scan and the line is "
     "rejected; a decimal in an `%d` field reads the integer part and leaves `.0` for the next "
     "field, so every later value on the line shifts by one: wrong positions or weights, not "
     "an error.",
     "None: every malformed number, in every profile.", "nodes\n1.0 \"root\" -1\nend",
     "Fix the exporter or script that wrote the value: integers "
     "without a decimal point, floats with `.` as the decimal separator."},
    {"syntax.short-line", "a line has fewer fields than its kind needs",
     "A vertex line has fewer than 9 numbers, a bone line fewer than 7, a VTA vertex fewer "
     "than 7, or a `links n` list has fewer than n bone/weight pairs. RigScope drops the "
     "triangle or line.",
     "Source studiomdl skips a vertex line with fewer than 9 values, which desynchronises the "
     "triangle: the next line is taken as a material name and the rest of the block is garbage. "
     "GoldSrc reads missing values as zero.",
     "vertex 9 fields (+ 2 per link); pose and VTA lines 7; the same in every profile. Source: "
     "SDK 2013 v1support.cpp (`if (i < 9) continue`), GoldSrc studiomdl.c.",
     "triangles\nskin.bmp\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1\n0 0 1 0 0 0 1 0 1\nend",
     "Export the file again; a cut line usually means the export was interrupted or a script "
     "wrote too few values."},
    {"syntax.extra-fields", "a line carries fields after the last one the grammar uses",
     "Tokens follow the last field that the format defines for the line, e.g. numbers after "
     "the links of a vertex or after the rotation of a pose line.",
     "The compilers ignore them, so the model is unchanged. Strict readers such as the "
     "BinarySMD converter reject the file, and the extra values may mean the exporter used a "
     "different layout than you think.",
     "None: any extra token (note in goldsrc, source, source256; off for cod).",
     "skeleton\ntime 0\n0 0 0 0 0 0 0 1.0\nend",
     "Usually nothing; if another tool must read "
     "the file, export it without the extra values."},
    {"syntax.blank-line-in-block", "an empty line inside a block",
     "A line with nothing but blanks appears between a block's keyword and its `end`.",
     "studiomdl ends the `nodes` block at the first blank line, so the bones after it vanish; "
     "inside `triangles` it reads the blank line as a material and the three following lines "
     "as its vertices, shifting every triangle after it. Blender Source Tools also stop at it.",
     "None: any blank line inside `nodes` or `triangles` (error), `skeleton` or "
     "`vertexanimation` (warning). Source: ep1 `Grab_Nodes`, BST `smdBreak`.",
     "nodes\n0 \"root\" -1\n\n1 \"arm\" 0\nend", "Delete the blank line."},
    {"syntax.tab-in-file", "a tab is used as a field separator",
     "A tab separates the fields of a line.",
     "GoldSrc and most readers split on any blank, but Source studiomdl splits a vertex line "
     "with more than 4 links on spaces only: tabs there make it misread the link list. On any "
     "other line tabs are harmless.",
     "None. Note in every SMD profile; a warning in source and source256 on a vertex line with "
     "more than 4 links. Source: SDK 2013 `ParseFaceData`; VDC SMD page.",
     "0\t0 0 0\t0 0 1\t0 0", "Separate fields with spaces."},
    {"syntax.comment-goldsrc", "a comment line in a file for GoldSrc",
     "A full line starts with `//`, `#` or `;` in a file checked with the goldsrc profile.",
     "GoldSrc studiomdl knows no comments. Inside a block the comment line is parsed as data "
     "(a bone, a material or a vertex) and shifts everything after it; before the first block "
     "it is usually skipped as an unknown word.",
     "goldsrc only: error inside blocks, warning at the top level. Source: HL SDK studiomdl.c "
     "(no comment handling).",
     "// exported by hand\nversion 1",
     "Strip comment lines before compiling with a GoldSrc "
     "studiomdl."},
    {"syntax.comment-in-block", "a comment line inside a block that studiomdl does not skip",
     "Inside a block, a line starts with `#` or `;`, or with `//` that is indented.",
     "Source studiomdl skips only lines that start with `//` at column 1. Any other comment is "
     "read as data: in `nodes` it ends the block, in `triangles` it becomes a material name and "
     "misaligns the triangles that follow.",
     "source and source256: error. Source: SDK 2013 `GetLineInput`.",
     "triangles\n  // left arm\nskin.bmp", "Move the comment to column 1 as `//`, or delete it."},
    {"syntax.line-ending", "bare CR line endings, mixed endings or no final newline",
     "The file separates lines with a lone carriage return (error), mixes LF and CRLF "
     "(warning), or has no newline after the last `end` (note). CRLF alone is fine.",
     "studiomdl reads lines with `fgets`, which splits only on LF: a file with bare CR endings "
     "is one long line, and nothing after `version` is read. GoldSrc also needs the newline "
     "after the last `end`.",
     "None; the same rule in every profile (cod: warning).",
     "version 1\\rnodes\\r0 \"root\" "
     "-1\\rend\\r",
     "Save the file with LF or CRLF line endings (any text editor's line-ending "
     "setting)."},
    {"syntax.non-ascii", "a name contains bytes outside ASCII",
     "A bone, material or shape name contains non-ASCII bytes (warning); elsewhere in the file "
     "they are a note.",
     "The compilers store names as raw bytes in fixed-size fields and look them up byte for "
     "byte; the engine, QC files and other tools may use another encoding, so the name no "
     "longer matches its material, bone or flex controller.",
     "None: any non-ASCII byte, in every profile. Blender Source Tools warns about the same.",
     "nodes\n0 \"épaule\" -1\nend", "Rename the bone, material or shape with ASCII letters."},
    {"syntax.smdx-corrupt", "a BinarySMD file that cannot be read to its end",
     "The `.smdx` file has a bad magic, a truncated value, a block type that cannot be "
     "skipped, a count larger than the bytes left, or bytes after the last block. The location "
     "is the byte offset of the bad value.",
     "BinarySMD's own reader stops with an exception and converting the file back to text "
     "loses everything after the damage; RigScope shows what it read before it.",
     "None: any corruption, in goldsrc, source and source256 (BinarySMD has no CoD form). "
     "Source: BinarySMD `format.md` and reader.",
     "@0x0000: 53 4d 44 58 01 c3 ...  (a block type byte of 0xc3)",
     "Convert the text SMD to BinarySMD again; keep the text SMD as the source of truth."},
    {"syntax.smdx-vta-writer-bug", "a BinarySMD block written by the converter's faulty VTA writer",
     "A block typed 2 that only parses as the vertex-animation layout the BinarySMD writer "
     "produces by mistake. RigScope reads it the way the writer meant.",
     "BinarySMD's writer stores vertex animation with the wrong layout; its own reader then "
     "misreads the flex data, so a round trip through that tool scrambles flex shapes.",
     "None; goldsrc, source and source256. Source: BinarySMD writer (vertexanimation block).",
     "@0x0142: block 2 (vertexanimation) in the writer's layout",
     "Convert the file again with `rigscope-cli convert`, which writes the documented layout."},
    {"syntax.cod-comma", "a comma with no blank after it in a CoD export",
     "Two numbers are joined by a comma without a following space, as in `0.0,0.0`.",
     "The CoD exporters write `, ` between values. PyCoD-based tools (the Blender importer) "
     "split on the space and fail on the joined token; the Activision tools accept it.",
     "cod only (note). Source: PyCoD `xmodel.py`.", "OFFSET 0.0,0.0 1.5",
     "Export again, or put a space after each comma."},
    // ---- syntax.* reader ids (catalog §7) ----
    {"syntax.ext-mismatch", "the file's content and its extension name different formats",
     "The content sniffing found another format than the extension suggests (an SMD saved as "
     "`.vta`, an SMDX named `.smd`). RigScope reads it by its content.",
     "Compilers and importers choose their reader from the extension or from the QC, so the "
     "same file may fail or be read as another kind of data elsewhere.",
     "None; a note in every profile.", "body.vta whose first block is `triangles`",
     "Rename the file with the extension of its real format."},
    {"syntax.unterminated-string", "a quoted string runs to the end of the line",
     "A `\"` opens a string that is not closed on the same line. RigScope drops the line.",
     "studiomdl reads the quoted name up to the next quote wherever it is, so the bone gets a "
     "mangled name or swallows the next line; other readers stop.",
     "None; a warning in every profile.", "nodes\n0 \"root -1\nend",
     "Close the quote, or remove the stray `\"` from the name."},
    {"syntax.smdx-legacy", "a BinarySMD file in the old layout without magic",
     "The `.smdx` file has no `SMDX` magic and was parsed as the layout BinarySMD wrote before "
     "it had one.",
     "Current BinarySMD readers refuse it; only readers that still know the old layout load "
     "it.",
     "None; a warning in every profile. Source: BinarySMD history.",
     "@0x0000: 01 93 ...  (no 'SMDX' magic)",
     "Convert it again with `rigscope-cli convert file.smdx file.smd` and back, which writes "
     "the current layout."},
    {"syntax.smdx-non-minimal", "a BinarySMD integer not in its shortest encoding",
     "An integer is stored with a wider MessagePack encoding than its value needs.",
     "Readers decode it fine; it shows the file was not written by BinarySMD itself, and "
     "RigScope's writer would not reproduce its bytes exactly.",
     "None; a note in every profile.", "@0x0010: cd 00 05  (uint16 holding 5)",
     "Nothing needed; convert again if byte-identical output matters."},
    {"syntax.bin-corrupt", "an XMODEL_BIN or XANIM_BIN file that cannot be decoded",
     "The `*LZ4*` header, its sizes or the LZ4 data are bad, or a token in the decompressed "
     "stream is unknown or runs past the end. Offsets are into the decompressed stream.",
     "The CoD tools refuse the file and nothing after the damage can be read.",
     "None; an error in every profile. Source: PyCoD's binary layout.",
     "@0x0000: 2a 4c 5a 34 2a ...  (size field larger than the file)",
     "Export the binary file again from its text export."},
    {"syntax.bin-misaligned", "a `*_BIN` token does not start on a 4-byte boundary",
     "In the decompressed stream of an XMODEL_BIN or XANIM_BIN file, a token starts at an "
     "offset that is not a multiple of 4.",
     "The CoD tools write every token 4-byte aligned and read them that way; a misaligned "
     "token is read from the wrong bytes by them, even though RigScope can still decode it.",
     "None; a warning in every profile.", "@0x0036: token 0x76d7 at an unaligned offset",
     "Write the file again with a tool that pads tokens (PyCoD, `rigscope-cli convert`)."},
};
} // namespace

std::span<const CheckExplanation> checkExplanations() noexcept
{
    return kExplanations;
}

const CheckExplanation* findExplanation(std::string_view id) noexcept
{
    for (const CheckExplanation& x : checkExplanations()) {
        if (x.id == id) {
            return &x;
        }
    }
    return nullptr;
}

} // namespace rigscope::core
