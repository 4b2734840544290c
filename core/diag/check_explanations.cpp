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
    {"syntax.missing-end",
     "a block is not closed before the next block starts (QC: at the end of the file)",
     "A `nodes`, `skeleton`, `triangles` or `vertexanimation` block has no `end` line before the "
     "next block keyword, or a QC `{` block is still open at the end of the file. RigScope "
     "closes the block and keeps what it read; a note points at the line that opened it. An "
     "SMD, VTA or CoD file that ends inside a block is `syntax.truncated`.",
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
     "`vertexanimation` (warning). A blank line where `triangles` expects a material, followed "
     "only by the block's `end` (an exporter's empty block, as in a null model), is a note: "
     "studiomdl skips it and the three lines after it (HL1 and Source `Grab_Triangles`), which "
     "hold nothing. Source: ep1 `Grab_Nodes`, BST `smdBreak`.",
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
    {"syntax.compiled-file", "a compiled game file where a model source belongs",
     "A file read as a model source starts with the signature of a compiled game file: `IDST` "
     "(a Source or GoldSrc `.mdl`), `IDSQ` (a GoldSrc sequence group), `IDSV` (a `.vvd`), "
     "`IDAG` (an `.ani`), `VTF` (a Source texture) or `DDS` (a DirectDraw texture). It happens "
     "when a QC names one as a body or an animation, when `--force-reader` forces a source "
     "reader on it, or when a companion file (`.vvd`, `.ani`, `NAME01.mdl`) is opened alone. "
     "A `.mdl` opened on its own is read as the compiled model it is.",
     "studiomdl writes these files; it never reads them back as a body or an animation, so a "
     "QC naming one stops the compile. A companion holds part of a model: it needs its `.mdl`. "
     "A texture belongs to a material, not to a model.",
     "None: every profile.",
     "hero_anims.vvd:@0x0000: error: the vertex data (.vvd) of a compiled model: open the .mdl "
     "beside it, which reads it",
     "Name the QC, SMD or DMX files the model was compiled from; open a companion's `.mdl` "
     "instead. For a texture, open the model whose materials use it (Settings ▸ Materials or "
     "`--material-root` says where the game folder is); the Inspector shows each material's "
     "texture."},
    // ---- skeleton.* (catalog) ----
    {"skeleton.no-bones", "the file declares no bones",
     "The `nodes` block is missing or empty (SMD, VTA), or a CoD export has no `BONE` records.",
     "Every vertex must be bound to a bone and every animation moves bones: studiomdl stops with "
     "an error, Blender Source Tools reports that no bones were imported, and the CoD tools need "
     "at least the root `tag_origin`.",
     "None: a model needs at least one bone, in every profile (Source: `missing all bones in "
     "file`, studiomdl.cpp), but for one case. goldsrc and afterburner: a body file with no "
     "triangles either is a note. HL1 studiomdl.c `Grab_Triangles` reads no vertex, "
     "`SimplifyModel` keeps no bone (no vertex uses one) and `WriteFile` writes the submodel "
     "empty: the model is as empty as its source (Afterburner's `speaker_alarm`, built by "
     "abstudiomdl: 0 bones, 1 skin family of 0 textures). The same file played by a `$sequence` "
     "stays an error: `Grab_Animation` finds no key in it.",
     "version 1\nnodes\nend\nskeleton\ntime 0\nend",
     "Export the armature with the mesh; a static prop still needs one root bone."},
    {"skeleton.duplicate-id", "a bone id is declared twice with a different name or parent",
     "Two lines of `nodes` use the same id but name a different bone or parent (an identical "
     "line repeated is only a note). A note points at the first declaration.",
     "studiomdl stores bones in an array indexed by id, so the later line overwrites the earlier "
     "one: the first bone disappears and every vertex and key that used the id now moves with "
     "the second bone.",
     "None: any redefined id, in every profile. Source: GoldSrc studiomdl.c and ep1 "
     "studiomdl.cpp (the check exists there but is disabled).",
     "nodes\n0 \"root\" -1\n1 \"arm\" 0\n1 \"leg\" 0\nend",
     "Give every bone its own id, numbered 0, 1, 2, ... in the order of the lines."},
    {"skeleton.duplicate-name", "two bone ids share a name",
     "Two different ids declare the same bone name. Source compares names without case, so "
     "`Arm` and `arm` count as the same name there.",
     "Compilers and importers look bones up by name: the two bones merge into one in the "
     "compiled bone table, and animations or attachments bind to whichever comes first. The "
     "CoD tools reject the model.",
     "None: any repeated name; warning for the Valve profiles, error for cod. Source: ep1 "
     "`findGlobalBone` (case-insensitive), Crowbar, zeroy's CoD notes. goldsrc and afterburner: "
     "names that differ only in case are a note, as HL1 studiomdl.c `SimplifyModel` builds the "
     "bone table with `findNode`, which compares with `strcmp`: both bones are kept (Afterburner's "
     "`austria_tree_dead_snow` keeps `TREE` and `tree`); its `$attachment`, `$hbox`, `$hgroup` "
     "and `$controller` links compare with `stricmp` and take the first.",
     "nodes\n0 \"root\" -1\n1 \"Bip01\" 0\n2 \"bip01\" 0\nend",
     "Rename one of the bones in the modelling tool so every name is unique."},
    {"skeleton.id-gap", "bone ids are not numbered 0 to n-1 in order",
     "The ids of `nodes` skip numbers or are not in increasing order.",
     "Source sizes its bone table from the largest id and fills the gaps with unnamed "
     "placeholder bones, which count against the bone limit. GoldSrc sizes it from the last "
     "id written, so a larger id earlier in the list is out of range.",
     "None: any gap; warning under goldsrc, note under source and source256, and under pathos "
     "(vbmcompiler sizes the list from the largest id; its placeholders have no name or parent "
     "and reach no table entry: smdparser.cpp ParseNodes). Seen in real files from the Pathos "
     "mod.",
     "nodes\n0 \"root\" -1\n1 \"arm\" 0\n5 \"hand\" 1\nend",
     "Renumber the bones 0, 1, 2, ... (re-exporting usually does it)."},
    {"skeleton.unknown-parent", "a bone's parent id is not declared",
     "A `nodes` line gives a parent that is neither -1 nor the id of a declared bone. RigScope "
     "makes the bone a root.",
     "studiomdl links the bone to an array slot that holds no bone: the hierarchy is broken and "
     "the compile fails or the bone ends up at the origin. Blender Source Tools crash on it.",
     "None: any undeclared parent, in every profile; under goldsrc a note in a file with an "
     "empty `triangles` block (a null model): HL1 studiomdl keeps only bones that vertices use "
     "(`SimplifyModel`), so the bone never reaches the model. In a QC project, in every "
     "profile, a note on a bone the compiled model does not have and no vertex of the file "
     "uses: studiomdl stores the parent unchecked (SDK 2013 and HL1 Grab_Nodes), builds its "
     "bone table from used bones only (SDK 2013 simplify.cpp BuildGlobalBonetable, HL1 "
     "SimplifyModel) and skips a sequence's bone the table lacks, so the broken parent reaches "
     "nothing (tschumann/basis null.qc, read as source: its null.mdl has 0 bones).",
     "nodes\n0 \"root\" -1\n1 \"arm\" 7\nend",
     "Fix the parent id, or declare the missing parent bone."},
    {"skeleton.cycle", "the parent chain of a bone loops back to itself",
     "Following parents from a bone comes back to the same bone (a bone that is its own parent, "
     "or two bones parented to each other). RigScope breaks the loop at the first bone "
     "revisited.",
     "A bone hierarchy must be a tree: studiomdl computes world transforms by walking up the "
     "parents and never finishes, or fails with a bone order error.",
     "None: any loop, in every profile. Source: ep1 simplify.cpp bone ordering.",
     "nodes\n0 \"a\" 1\n1 \"b\" 0\nend",
     "Re-parent the bones so that exactly one chain ends at a root (-1)."},
    {"skeleton.multiple-roots", "more than one bone has no parent",
     "Several bones of `nodes` have parent -1. The message names them.",
     "Valve compilers accept several roots; it is only worth knowing, since each root is "
     "animated on its own. The CoD tools need exactly one root (see `cod.root-count`).",
     "None: any count above 1, as a note in the Valve profiles.",
     "nodes\n0 \"root\" -1\n1 \"prop\" -1\nend",
     "Nothing for Valve games; parent everything under one root if you want a single tree."},
    {"skeleton.bone-limit", "the model uses more bones than the profile's compiler allows",
     "The bones the compiled model keeps exceed the profile's limit. GoldSrc keeps the bones "
     "under vertices and their ancestors. For Source a lone file counts every declared bone (a "
     "QC may keep empty ones for attachments), and the message counts those that carry no "
     "vertex; a QC project counts its compiled skeleton, reported at `$modelname`. It suggests "
     "`source256` when the model would fit.",
     "studiomdl stops with \"too many bones used in model\"; older builds write past the bone "
     "table instead and crash or produce a broken model.",
     "goldsrc 127 and source 127 (a 128-entry table tested with `>=`: HL SDK studiomdl.c, ep1 "
     "simplify.cpp); source256 255 (CS:GO, SFM and Garry's Mod builds); cod: none known. "
     "pathos 127 in the table vbmcompiler builds from the bodies' kept bones (vertex parent "
     "fields and links, `$attachment` and `$protected` bones, their parents; "
     "studiocompiler.cpp CreateBoneTable, `MAXSTUDIOBONES` in shared/studio.h); an animation "
     "file's bones are not limited, those no body has are skipped (RemapSequenceBones). In "
     "goldsrc and source an animation file (no triangles) may hold up to 512 bones "
     "(`MAXSTUDIOSRCBONES`: the bones no body uses never reach the table); past that it is an "
     "error.",
     "nodes\n0 \"b0\" -1\n1 \"b1\" 0\n...\n127 \"b127\" 126\nend",
     "Collapse helper and twist bones you do not need, split the model, or compile with a "
     "256-bone branch and `--profile=source256`."},
    {"skeleton.bone-id-range", "a bone id outside 0 to 511",
     "A `nodes` id is negative or 512 and above.",
     "studiomdl reads source bones into a fixed array of 512 entries without a bounds check: a "
     "larger id writes outside it and corrupts the compiler's memory.",
     "0 to 511 in every Valve profile (`MAXSTUDIOSRCBONES` in studiomdl.h).",
     "nodes\n0 \"root\" -1\n600 \"arm\" 0\nend", "Renumber the bones from 0."},
    {"skeleton.name-length", "a bone name is longer than the compiler stores",
     "A bone name has more characters than the profile's name field holds. The message says "
     "when the cut name collides with another bone.",
     "studiomdl copies names into fixed-size fields: the name is cut, so QC commands and "
     "animations that refer to the full name no longer find the bone, and two long names can "
     "become the same bone.",
     "goldsrc 31 (`name[32]` in studiomdl.h); source and source256 127 (`MAXSTUDIONAME`); cod: "
     "none known.",
     "nodes\n0 \"ValveBiped.Bip01_L_Forearm_Twist_Helper_Bone\" -1\nend",
     "Shorten the bone name in the modelling tool (and in the QC and animations that use it)."},
    {"skeleton.unreferenced-bone", "a reference bone carries no vertices, nor do its children",
     "A bone of a reference file has no compiled vertex weight on it or on any of its "
     "descendants (a link the compiler culls, under 0.05 in Source, does not count). In a QC "
     "project the bodies are judged together: a bone one body leaves empty and another weights "
     "is kept, and the drop is reported once, on the file that first declares the bone.",
     "studiomdl leaves such bones out of the compiled model, so hitboxes (and in GoldSrc "
     "attachments) aimed at them stop the compile, and animation keys on them are lost. Source "
     "keeps them when a non-rigid `$attachment` (or a DMX file's own attachment), `$ikchain`, "
     "`$bonemerge`, eyeball, mouth or `$definebone` names them; GoldSrc keeps vertex bones only.",
     "None: any such bone; warning under goldsrc, note under source and source256. Sources: "
     "GoldSrc `SimplifyModel`; Source SDK 2013 `simplify.cpp` `TagUsedBones` and "
     "`BuildGlobalBonetable`.",
     "nodes\n0 \"root\" -1\n1 \"unused\" 0\nend\n(triangles weighted to bone 0 only)",
     "Weight something to the bone, delete it, or (Source) keep it with `$definebone` when an "
     "animation or a model merged onto this one needs it."},
    {"skeleton.missing-in-first-frame", "a declared bone has no key in the first frame",
     "A bone of `nodes` has no line in the first `time` block of `skeleton` (VTA files are "
     "exempt: their frames need no bones).",
     "studiomdl carries missing bones forward from the previous frame; in the first frame there "
     "is none, so the bone gets zero position and rotation and collapses to its parent's "
     "origin.",
     "None: any missing bone, in the Valve profiles. In a QC project, not for a file only delta "
     "sequences play or only `subtract` names (Crowbar writes one per decompiled delta "
     "sequence): a zero there adds or subtracts nothing, which is what it is for.",
     "nodes\n0 \"root\" -1\n1 \"arm\" 0\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend",
     "Key every bone at the first frame (exporters have an option to write the full pose)."},
    {"skeleton.no-time", "a pose line comes before any `time` line",
     "Inside `skeleton`, a bone line appears before the first `time N`. RigScope skips it.",
     "studiomdl needs the frame number first and stops with a missing frame start error.",
     "None: any such line, in the Valve profiles. Source: ep1 studiomdl.cpp.",
     "skeleton\n0 0 0 0 0 0 0\ntime 0\nend", "Add `time 0` before the first pose line."},
    {"skeleton.unknown-bone-in-frame", "a frame animates a bone id that `nodes` does not declare",
     "A line of `skeleton` starts with an id that has no `nodes` line. RigScope skips it.",
     "studiomdl indexes its bone array with the id: an undeclared id is an error, or reads a "
     "slot with no bone and animates nothing.",
     "None: any undeclared id, in the Valve profiles.",
     "nodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n3 0 0 0 0 0 0\nend",
     "Fix the bone id, or declare the bone in `nodes`."},
    {"skeleton.time-order", "`time` numbers go backwards",
     "A `time` is lower than the first frame's (error), or lower than the previous one but not "
     "below the first (warning). RigScope sorts the frames.",
     "studiomdl stores frame N at index N minus the first time: a time below the first lands "
     "before the start of the array, and out-of-order times play the animation in file order "
     "in some tools and in time order in others.",
     "None: any decrease, in the Valve profiles.",
     "skeleton\ntime 5\n0 0 0 0 0 0 0\ntime 2\n0 0 0 1 0 0 0\nend",
     "Write the frames in increasing `time` order (export the animation again)."},
    {"skeleton.missing-frames", "a gap in the `time` numbers",
     "The frames jump over numbers, e.g. `time 3` followed by `time 6`. RigScope holds the "
     "previous pose over the gap.",
     "Source studiomdl stops with \"missing frame\"; GoldSrc holds the last pose; Blender Source "
     "Tools ignores the numbers and plays the frames back to back, so timing differs between "
     "tools.",
     "None: any gap; error under source and source256, warning under goldsrc. Source: ep1 "
     "studiomdl.cpp.",
     "skeleton\ntime 0\n0 0 0 0 0 0 0\ntime 2\n0 0 0 1 0 0 0\nend",
     "Bake every frame when exporting (no key reduction)."},
    {"skeleton.duplicate-frame", "the same `time N` appears twice",
     "Two `time` lines carry the same number. RigScope merges them; the later lines win.",
     "studiomdl merges the two frames the same way, but Blender Source Tools and BinarySMD make "
     "a second frame, so the animation has a different length depending on the tool.",
     "None: any repeated time, in the Valve profiles.",
     "skeleton\ntime 0\n0 0 0 0 0 0 0\ntime 0\n0 0 0 1 0 0 0\nend", "Remove the duplicate frame."},
    {"skeleton.reference-animated", "a reference file holds more than one frame",
     "A file with `triangles` has several `time` frames. The first is the rest pose.",
     "Compilers use only the first frame of a reference as its bind pose and ignore the others; "
     "if you meant the motion, it is lost. Some importers load it as an animation instead.",
     "None: more than one frame in a file with triangles, in the Valve profiles. Source: Blender "
     "Source Tools import_smd.py.",
     "skeleton\ntime 0\n0 0 0 0 0 0 0\ntime 1\n0 0 0 1 0 0 0\nend\ntriangles",
     "Export the reference with one frame and the motion as a separate animation SMD."},
    {"skeleton.frame-limit", "one animation has more frames than the compiler allows",
     "The number of frames of one animation exceeds the profile's limit.",
     "studiomdl stores frames in fixed tables: it refuses the sequence or writes past the "
     "table.",
     "goldsrc 2048 (`MAXSTUDIOANIMATIONS`, studio.h); source and source256 2000 "
     "(`MAXSTUDIOANIMFRAMES`, ep1 studiomdl.h); cod: none known.",
     "skeleton\ntime 0\n...\ntime 2000\nend",
     "Split the animation into several sequences, or export at a lower frame rate."},
    {"skeleton.negative-id", "a bone id below 0",
     "A `nodes` line has a negative id. RigScope skips the line, so the bone is missing.",
     "studiomdl indexes its bone array with the id: a negative id writes before the array and "
     "corrupts the compiler's memory.",
     "None: any negative id; a reader error in every profile.", "nodes\n-1 \"root\" -1\nend",
     "Renumber the bones from 0."},
    // ---- weights.* (catalog) ----
    {"weights.sum-not-one", "a vertex's weights do not add up to 1",
     "The link weights of a vertex sum to something more than 0.001 away from 1.",
     "Source studiomdl divides the weights by their sum, so the vertex is skinned with "
     "proportions you did not paint; assimp gives the missing part to the parent bone instead, "
     "so tools disagree on where the vertex goes. The CoD tools expect normalised weights.",
     "Tolerance 0.001; not checked under goldsrc, which ignores the links. Source: "
     "`SortAndBalanceBones` (ep1 mrmsupport.cpp), assimp SMD loader.",
     "0 0 0 0 0 0 1 0 0 2 1 0.5 2 0.3",
     "Normalise the weights in the modelling tool (Blender: Normalize All)."},
    {"weights.negative", "a link weight is negative", "A vertex has a link with a weight below 0.",
     "studiomdl sorts the negative link last and drops it, which changes the other weights; the "
     "CoD tools require weights in (0, 1]. No tool gives a meaningful result.",
     "Any value below 0; not checked under goldsrc. Source: `SortAndBalanceBones`; zeroy's CoD "
     "notes.",
     "0 0 0 0 0 0 1 0 0 2 1 -0.5 2 1.5", "Clamp negative weights to 0 and normalise again."},
    {"weights.zero-sum", "a vertex's weights add up to zero or less",
     "Every link weight of the vertex is 0 or negative, or an XMODEL vertex has `BONES 0`.",
     "Source studiomdl drops all links but the first after sorting and gives it 100 %: the "
     "vertex follows a bone you did not choose. The CoD tools refuse an unweighted vertex.",
     "Sum at or below 0; warning under source and source256, error under cod; not checked "
     "under goldsrc.",
     "0 0 0 0 0 0 1 0 0 2 1 0 2 0", "Weight the vertex to at least one bone."},
    {"weights.zero-link", "a link with weight exactly 0",
     "A vertex lists a bone with weight 0. The message counts them per file.",
     "studiomdl drops the link, so it has no effect; it usually means empty vertex groups were "
     "exported.",
     "Weight exactly 0; a note in source, source256 and cod.", "0 0 0 0 0 0 1 0 0 2 1 1.0 2 0",
     "Clean the vertex groups (Blender: Clean, limit 0) before exporting."},
    {"weights.nan", "a link weight is NaN or infinite",
     "A weight parses as `nan`, `inf` or `infinity`.",
     "NaN passes through every step of studiomdl's weight processing: the vertex is skinned to "
     "NaN and vanishes or stretches to infinity in game.",
     "Any non-finite weight; error in source, source256 and cod (goldsrc ignores links).",
     "0 0 0 0 0 0 1 0 0 2 1 nan 2 1.0",
     "Export again; find the vertex with the broken weight in the modelling tool (often after a "
     "division by zero in a script)."},
    {"weights.unknown-bone", "a vertex is weighted to a bone that is not declared",
     "A link, or the parent-bone field of a rigid vertex, names a bone id with no `nodes` line "
     "(goldsrc reads only the parent field). RigScope drops the link.",
     "studiomdl fails with a bogus bone index, or binds the vertex to whatever sits in that "
     "slot. Blender Source Tools reports vertices weighted to invalid bones.",
     "None: any undeclared bone, in every profile. Source: SDK 2013 v1support.cpp.",
     "nodes\n0 \"root\" -1\nend\n...\n0 0 0 0 0 0 1 0 0 1 3 1.0",
     "Fix the mapping between vertex groups and bones: every group must have a bone of the "
     "same name."},
    {"weights.too-many-links", "a vertex keeps more links than the profile allows",
     "After dropping the links studiomdl culls (raw weight below 0.05), the vertex still has "
     "more links than the profile keeps. The message gives the weight that is lost.",
     "studiomdl keeps only the heaviest links and renormalises: the vertex moves differently "
     "from what you painted. GoldSrc keeps only the parent-bone field, one bone.",
     "goldsrc 1 (the parent field; HL SDK studiomdl.c); source and source256 3 "
     "(`MAXSTUDIOBONEWEIGHTS`); pathos 4 above 0.001, the first four as written "
     "(vbmcompiler geometrysmdparser.cpp, compiler_types.cpp addWeightInfo, "
     "`MAX_VBM_BONEWEIGHTS` in shared/vbmformat.h); cod: none known.",
     "0 0 0 0 0 0 1 0 0 4 1 0.4 2 0.3 3 0.2 4 0.1",
     "Limit influences per vertex to the profile's count in the modelling tool (Blender: Limit "
     "Total) and normalise."},
    {"weights.below-cull", "a small link weight that studiomdl drops",
     "A link has a raw weight above 0 and below 0.05 and is not the heaviest link of its vertex.",
     "studiomdl removes such links before normalising: the weight goes to the other bones. "
     "Tiny weights painted for smooth falloff disappear.",
     "0.05, raw (before normalising), in source and source256; `MDLCOMPILE` builds use 0.0001. "
     "Source: `SortAndBalanceBones`.",
     "0 0 0 0 0 0 1 0 0 3 1 0.5 2 0.46 3 0.04",
     "Prune weights below 0.05 yourself, so what you see is what compiles."},
    {"weights.duplicate-link", "the same bone is listed twice in one vertex's links",
     "A vertex names one bone in two or more links.",
     "studiomdl adds the weights together; other tools keep the last, the first, or both as "
     "separate influences, so the vertex moves differently from tool to tool.",
     "None: any repeat. A note in source and source256: studiomdl adds the repeats before it "
     "sorts, culls and balances the links (mrmsupport.cpp SortAndBalanceBones, \"collapse "
     "duplicate bone weights\"), so the compiled vertex moves by the sum the file wrote; "
     "Fortress Forever's viewmodels have 320 such links and shipped. A warning in cod.",
     "0 0 0 0 0 0 1 0 0 2 7 0.6 7 0.4", "Merge the vertex groups that map to the same bone."},
    {"weights.parent-mismatch", "GoldSrc binds the vertex to its parent field, not its links",
     "A vertex has links, and the parent-bone field (the first number) is not the heaviest "
     "bone of those links.",
     "GoldSrc studiomdl never reads the links: the vertex is bound entirely to the parent "
     "field. If the links say otherwise, the model deforms with the wrong bone in game.",
     "goldsrc only (warning). Source: HL SDK studiomdl.c vertex reader.",
     "0 0 0 0 0 0 1 0 0 1 1 1.0",
     "Put the dominant bone in the first field (the exporter's GoldSrc option does this)."},
    // ---- mesh.* (catalog) ----
    {"mesh.degenerate-triangle", "a triangle has zero area",
     "Two corners of the triangle are at the same position, or all three lie on a line.",
     "It draws nothing and has no usable normal. Later Source branches drop it, older ones "
     "keep it; either way it wastes vertices and can break tangent generation.",
     "Zero area; a note in every profile.",
     "skin.bmp\n0 0 0 0 0 0 1 0 0\n0 0 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1",
     "Delete the triangle or merge the coincident vertices (Blender: Merge by Distance)."},
    {"mesh.misdirected-normals", "a triangle's normals point against its winding",
     "All three corner normals point away from the face normal given by the corners' order "
     "(warning); under goldsrc a single corner doing so is a note.",
     "The winding decides which side is the front: the face is culled from the side its normals "
     "face, so it looks inside out or dark. GoldSrc studiomdl also flips faces based on the "
     "normals.",
     "None: a negative dot product between the corner normals and the face normal, in every "
     "profile. Source: HL SDK studiomdl.c.",
     "skin.bmp\n0 0 0 0 0 0 -1 0 0\n0 1 0 0 0 0 -1 1 0\n0 0 1 0 0 0 -1 0 1",
     "Flip the face, or recalculate the normals outside, in the modelling tool."},
    {"mesh.zero-normal", "a vertex normal has zero length",
     "A corner's normal is shorter than 0.000001.",
     "The shading of the vertex is undefined (black or flickering), and studiomdl cannot weld "
     "it with its neighbours. Black Ops tools reject it.",
     "Length below 1e-6; warning in every profile.", "0 0 0 0 0 0 0 0 0",
     "Recalculate the normals before exporting."},
    {"mesh.unnormalised-normal", "a vertex normal is not of unit length",
     "A corner's normal has a length more than 0.001 away from 1.",
     "Compilers and engines mostly renormalise, but some paths use the raw vector and the "
     "lighting is too bright or too dark. Often seen in collision meshes, where it is harmless.",
     "Tolerance 0.001; a note in every profile.", "0 0 0 0 0 0 2 0 0",
     "Normalise the normals (re-export usually does)."},
    {"mesh.nan", "a position, normal, UV or bone pose is NaN or infinite",
     "A float field of the mesh or of a bone's pose parses as `nan` or `inf`.",
     "The value propagates through every transform: the vertex or the whole bone chain "
     "disappears or stretches to infinity, and bounding boxes become invalid.",
     "Any non-finite value; error in every profile.", "0 0 nan 0 0 0 1 0 0",
     "Export again; find the broken vertex or key in the modelling tool."},
    {"mesh.empty-material", "a triangle has an empty material line",
     "The line before a triangle's three vertex lines is blank or only spaces.",
     "studiomdl skips the triangle, so a hole appears in the compiled model. Blender Source "
     "Tools reports the same for Milkshape exports.",
     "None: any empty material line, in the Valve profiles.",
     "triangles\n\n0 0 0 0 0 1 0 0 0\n0 1 0 0 0 1 1 0 0\n0 0 1 0 0 1 0 1 0\nend",
     "Assign a material to every face before exporting."},
    {"mesh.material-name-length", "a material name is longer than the compiler stores",
     "A material line has more characters than the profile's name field holds.",
     "studiomdl copies the name into a fixed buffer: GoldSrc with `strcpy`, which overflows and "
     "crashes or corrupts the model; Source cuts it, so the game looks for a texture that does "
     "not exist.",
     "goldsrc 63 (`texturename[64]`, HL SDK studiomdl.c); source 63 (ep1 v1support.cpp) as a "
     "warning up to SDK 2013's 259 (`MAX_PATH`, Grab_Triangles), an error past it; source256 "
     "259; cod: none known.",
     "triangles\nmodels/props_industrial/a_very_long_folder_name/and_an_even_longer_material_name",
     "Shorten the name; put the folder in the QC's `$cdmaterials` instead of every material."},
    {"mesh.material-chars", "a material name contains a quote, space or path separator",
     "A material name contains a `\"` (warning), or a space, a `/` or `\\`, or blanks at its "
     "ends (note).",
     "studiomdl takes the whole line, but the QC, the engine's material system and other "
     "importers (assimp, IQM tools) cut names at the first space or quote, so the texture is "
     "not found. Path separators make studiomdl look in a folder you did not mean.",
     "None: any such character, in the Valve profiles.", "triangles\nskin (head).bmp",
     "Rename the material with letters, digits, `_` and `-` only."},
    {"mesh.material-not-bmp", "a GoldSrc material is not a `.bmp` file",
     "Under goldsrc, a material name does not end in `.bmp`.",
     "GoldSrc studiomdl loads textures itself and knows only 8-bit indexed BMP: any other "
     "extension stops the compile with an unknown graphics type error.",
     "goldsrc only. Source: HL SDK studiomdl.c `Grab_Skin`. Not pathos: vbmcompiler opens "
     "NAME.bmp whatever extension the SMD gives, and no texture at all with -s or -q "
     "(studiocompiler.cpp LoadTexture); the engine draws the .vbm with its own materials.",
     "triangles\nskin.tga",
     "Convert the texture to an 8-bit (256-colour) `.bmp` and use that name."},
    {"mesh.null-material", "triangles use a material studiomdl discards",
     "Triangles use `null.bmp`, `null.tga` or `debug/debugempty`. The message counts them.",
     "Source studiomdl drops these faces on purpose (a way to hide geometry). If that was not "
     "intended, they are missing in game.",
     "source and source256 (note). Source: SDK 2013 studiomdl.", "triangles\nnull.bmp",
     "Nothing if intended; otherwise assign a real material."},
    {"mesh.material-chrome", "a GoldSrc material name contains \"chrome\"",
     "Under goldsrc, a material name contains the word `chrome`.",
     "GoldSrc studiomdl turns on the chrome and flat-shade flags for any texture whose name "
     "contains `chrome`: the surface becomes a reflective environment map.",
     "goldsrc only (note). Source: HL SDK studiomdl.c.", "triangles\nchrome_trim.bmp",
     "Rename the texture if you did not want the chrome effect."},
    {"mesh.vertex-limit", "more unique vertices than the compiler allows",
     "After welding the corners the way the profile's compiler does, the model has more unique "
     "vertices than the limit. The location is the first vertex over it.",
     "studiomdl stops with \"too many vertices\" or \"too many indices in source\"; the CoD "
     "tools overflow a 16-bit index.",
     "goldsrc 2048 per submodel, welded on position (2 decimals) and bone (HL SDK studiomdl.c); "
     "source and source256 65536 per SMD, welded on material, position, normal within 2°, UV "
     "and weights (SDK 2013 `lookup_index`); a DMX is not welded by value: its vertices are its "
     "position, normal and UV index triples per mesh and material after normals within 2° are "
     "merged (dmxsupport.cpp `DefineUniqueVertices`), the count `info` and `compare` give too; cod "
     "65535 in XMODEL v5 and v6 (v7 has 32-bit "
     "indices). pathos 2047 per body file, a note: vbmcompiler stops at 2048 only for the "
     ".mdl copy of the geometry and not with -l or -s, which Pathos's models are built with "
     "(geometrysmdparser.cpp, `MAXSTUDIOVERTS_REF`); the .vbm has no such limit.",
     "(a mesh with 70,000 distinct corners)",
     "Split the mesh into several SMDs or bodygroups, or reduce UV seams and hard edges."},
    {"mesh.vertex-split", "enough vertices that the compiler splits the model",
     "Under source256, the welded vertex count is above 21845.",
     "Those branches split the model into several pieces at `$maxverts`; it compiles, but "
     "draw calls go up and some engines show seams between the pieces.",
     "source256 only: 21845 (the default `$maxverts`). Source: Garry's Mod issue 6469.",
     "(a mesh with 30,000 unique vertices)",
     "Raise `$maxverts` in the QC, or split the mesh yourself."},
    {"mesh.normal-limit", "more unique normals than GoldSrc allows",
     "Under goldsrc, after welding normals within 2° (same bone and texture), a submodel has "
     "more than 2048.",
     "GoldSrc studiomdl stops with too many normals.",
     "goldsrc only: 2048 per submodel (HL SDK studiomdl.c). pathos 2047, a note, as for "
     "mesh.vertex-limit (geometrysmdparser.cpp).",
     "(a smooth-shaded mesh with 3,000 distinct normals)",
     "Smooth more (fewer hard edges) or split the mesh into submodels."},
    {"mesh.triangle-limit", "more triangles than the compiler's table holds",
     "The model has more triangles than the profile's limit.",
     "The compiled model stores triangles in a fixed-size table; past it the compile fails or "
     "the mesh is cut.",
     "goldsrc 20000; source and source256 65536 (studio.h; whether the compilers enforce it "
     "is not verified, hence a warning).",
     "(a mesh of 70,000 triangles)", "Decimate the mesh or split it across SMDs."},
    {"mesh.material-limit", "the model uses more materials than the compiler allows",
     "The number of distinct materials (for CoD: materials or objects) exceeds the limit. The "
     "location is the first triangle using a material over it.",
     "Source studiomdl stops with \"too many materials used, max 32\"; GoldSrc does not check "
     "and crashes; the CoD format stores the index in one byte.",
     "goldsrc 100 (`MAXSTUDIOSKINS`, unchecked); source and source256 32 (ep1 studiomdl.cpp); "
     "cod 255 (8-bit index; v7 uses 16 bits).",
     "(triangles using 33 different material names)",
     "Merge materials (texture atlas), or split the model into several SMDs."},
    {"mesh.unique-vertices", "the vertex budget is more than 75 % used",
     "After the profile's welding, the model uses more than 75 % of the unique-vertex limit.",
     "Nothing fails yet; a few more UV seams or hard edges will cross the limit "
     "(`mesh.vertex-limit`).",
     "75 % of `mesh.vertex-limit`'s number for the profile; a note everywhere.",
     "(a mesh with 50,000 unique vertices under source)",
     "Nothing needed; keep an eye on it when adding detail."},
    {"mesh.duplicate-triangle", "a triangle repeats an earlier one",
     "A triangle has the same material and the same three positions as an earlier one.",
     "The copy draws on top of the original (z-fighting) and costs vertices. Usually a "
     "duplicated face that was never deleted.",
     "None: any exact duplicate; a note everywhere.",
     "skin.bmp\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\n(the same 4 lines "
     "again)",
     "Delete the duplicate faces (Blender: Merge by Distance, then Delete Duplicate Faces)."},
    // ---- flex.* (catalog) ----
    {"flex.unsupported", "a VTA flex file in a GoldSrc model",
     "A VTA is part of a document checked with the goldsrc profile.",
     "GoldSrc studiomdl has no flex (facial) animation at all: the VTA cannot be compiled.",
     "goldsrc only (error); not pathos, whose vbmcompiler reads a body's VTA into the .vbm "
     "(`$body NAME FILE flex VTA`; vtaparser.cpp).",
     "studiomdl.qc with a GoldSrc model and face.vta",
     "Use a Source compiler for flex shapes, or bake the expressions into animations."},
    {"flex.frame-sync", "a VTA vertex line comes before any `time`",
     "Inside `vertexanimation`, a vertex line appears before the first `time N`. RigScope "
     "skips it.",
     "Source studiomdl stops with a VTA frame sync error: it needs to know which shape the "
     "line belongs to.",
     "source and source256 (error). Source: ep1 studiomdl.cpp.",
     "vertexanimation\n0 0 0 0 0 0 1\ntime 0\nend", "Add `time 0` before the first vertex line."},
    {"flex.vertex-id-out-of-range", "a flex shape moves a vertex the base frame does not list",
     "A vertex id in a shape (`time 1` and later) is negative or absent from the base frame "
     "`time 0`.",
     "Source studiomdl computes each delta from the base frame: a vertex with no base has no "
     "delta and no position on the model, so the compile fails or the vertex is dropped.",
     "source and source256 (error). Source: `RemapVertexAnimations`.",
     "vertexanimation\ntime 0\n0 0 0 0 0 0 1\ntime 1\n5 0 0 1 0 0 1\nend",
     "Export the VTA again from the same mesh as the reference."},
    {"flex.first-shape-incomplete", "the base frame of a VTA does not list every vertex",
     "The ids of `time 0` are not 0 to n-1 without gaps. The message lists the missing ranges.",
     "The base frame defines every vertex that shapes may move. A vertex missing from it has "
     "no base position: its deltas are lost or attached to the wrong vertex.",
     "source and source256 (error).", "vertexanimation\ntime 0\n0 0 0 0 0 0 1\n2 1 0 0 0 0 1\nend",
     "Export every vertex in frame 0 (the exporter does this unless the file was edited)."},
    {"flex.unmatched-vertices", "VTA vertices that match no vertex of the reference mesh",
     "Base-frame vertices of the VTA have no reference vertex within 0.15 units. The message "
     "gives the count and share.",
     "Source studiomdl matches each VTA vertex to the nearest model vertex within 0.15 units "
     "and silently drops the others: those parts of the face never move. Blender Source Tools "
     "reports the same as vertices that were not matched.",
     "0.15 units, source and source256 (`RemapVertexAnimations`).",
     "(a VTA exported from a mesh that was moved or edited afterwards)",
     "Export the VTA from exactly the same mesh, in the same place, as the reference."},
    {"flex.vertex-limit", "a mesh has more flexed vertices than the compiler allows",
     "For one material's mesh, the vertices moved by any flex shape exceed the limit.",
     "Source studiomdl stops when a mesh has too many flexed vertices.",
     "source and source256: 10000 per mesh (`MAXSTUDIOFLEXVERTS`, ep1 simplify.cpp).",
     "(a head mesh where shapes move 12,000 vertices)",
     "Split the face into meshes with different materials, or move fewer vertices per shape."},
    {"flex.multi-bone-vertex", "flexed vertices are weighted to several bones",
     "Vertices moved by flex shapes have more than one effective bone after studiomdl's weight "
     "processing. The message counts them.",
     "Source studiomdl puts such vertices on a slower path for flex and skinning; it works, "
     "but costs performance in game.",
     "source and source256 (note). Source: ep1 optimize.cpp.",
     "(a face whose flexed vertices are weighted to head and neck)",
     "Rigid-skin the flexed area to one bone (usually the head) if performance matters."},
    {"flex.empty-shape", "a flex shape moves nothing studiomdl keeps",
     "Every delta of the shape is below the threshold studiomdl keeps (squared length 0.001 "
     "for position and normal).",
     "studiomdl skips deltas that small, so the shape compiles to nothing. Neutral shapes "
     "written on purpose by exporters also do this.",
     "Squared delta above 0.001, source and source256 (`RemapVertexAnimations`).",
     "vertexanimation\ntime 0\n0 0 0 0 0 0 1\ntime 1 # smile\n0 0 0 0.01 0 0 1\nend",
     "Nothing if it is a neutral or placeholder shape; otherwise check the shape was exported "
     "with its deformation."},
    {"flex.shape-name", "a flex shape name has a space, is repeated, or is missing",
     "A shape's name (the `# name` after `time N`) contains a space or repeats another shape "
     "(warning), or the shape has no name (note).",
     "QC `flex` commands refer to shapes by name and split on spaces: a name with a space or a "
     "repeated name cannot be addressed, and unnamed shapes get numbers.",
     "source and source256. Source: Crowbar issue 59.",
     "skeleton\ntime 0\ntime 1 # smile left\nend",
     "Rename the shape key with letters, digits and `_`, one name per shape."},
    // ---- xref.* (catalog) ----
    {"xref.anim-bone-missing", "an animation moves a bone the reference does not have",
     "A bone of an animation file (or an XANIM part) has no bone of the same name in the "
     "reference.",
     "The compiled bone table holds only the bones the bodies' vertices (and in Source the QC's "
     "attachments, IK chains and bone merges) use, so studiomdl has no bone for this one. It "
     "re-expresses the animation through the world, so the bones below it still move with it, "
     "but anything aimed at this bone (a rule, an attachment) finds nothing. Often the animation "
     "was made for another skeleton or the bone was renamed; a root like `ValveBiped.Bip01` "
     "that the reference collapsed is harmless.",
     "None: any missing name; warning in the Valve profiles, a note for a Source QC project's "
     "sequences (the model's bones move as animated, and qc.unknown-bone reports a command "
     "naming the bone) and under pathos (vbmcompiler skips an animation bone outside its "
     "table: studiocompiler.cpp RemapSequenceBones). Under goldsrc, in a QC project, a note "
     "too when no bone of the model lies below the missing one: HL1 studiomdl skips it, and "
     "only a model bone whose parent differs by name stops the compile (\"illegal parent bone "
     "replacement\"). Sources: GoldSrc `SimplifyModel`; "
     "Source SDK 2013 `simplify.cpp` `BuildGlobalBonetable` and `MapSourcesToGlobalBonetable`.",
     "(idle.smd animates \"Bip01_Tail\", the reference has no such bone)",
     "Export the animation from the same rig as the reference, or rename the bone."},
    {"xref.ref-bone-missing", "reference bones that an animation does not move",
     "Bones of the reference have no keys in the animation. The message counts them.",
     "They hold their rest pose during the animation. Often intended (helper bones, props).",
     "None; a note everywhere. Source: GoldSrc studiomdl default pose.",
     "(walk.smd keys 40 of the reference's 52 bones)",
     "Nothing if intended; otherwise export the animation with every bone."},
    {"xref.parent-mismatch", "a bone has another parent in the animation than in the reference",
     "The same bone name has different parents in two files of the document. A note points at "
     "the reference's declaration. Under goldsrc and pathos the animation is judged against "
     "the bone table (the bones the reference's vertices use, and their parents): a table "
     "bone whose parent in the animation has another name, including a parent the animation "
     "leaves out or adds, is an error; a bone outside the table is skipped.",
     "GoldSrc studiomdl stops (HL1 studiomdl.c SimplifyModel: \"illegal parent bone "
     "replacement in sequence\", names compared with strcmp) and so does vbmcompiler "
     "(studiocompiler.cpp RemapSequenceBones, case ignored). Source studiomdl does not stop "
     "and loses nothing: it builds each frame's bone-to-world transforms through the "
     "animation file's own hierarchy, then takes each bone's local transform under the "
     "compiled parent from them (ep1 and SDK 2013 simplify.cpp ConvertAnimation: "
     "BuildRawTransforms, TranslateAnimations), so every frame puts the bone where the file "
     "does; only blending and interpolation between keys then run in the compiled hierarchy. "
     "RigScope's QC preview and compare re-express such bones the same way. Fortress "
     "Forever's shipped viewmodels have 65 such findings (v_rpg's pistol grip follows a "
     "finger in its draw animations).",
     "None; error under goldsrc and pathos, note under source and source256 (where a parent "
     "one file lacks is left to xref.*-bone-missing). Source: HL SDK studiomdl.c, ep1 and "
     "SDK 2013 simplify.cpp.",
     "reference: 2 \"hand\" 1\nanimation: 2 \"hand\" 0",
     "Re-parent the bone in the rig so that every file uses the same hierarchy, and export "
     "again."},
    {"xref.blend-mismatch", "a blend's later file does not line up with its first file",
     "A `$sequence` with several files (a blend) is played as one animation per file. A later "
     "file is compared with the sequence's first, bone number by bone number (name, case "
     "ignored, and parent), then in bone count and in frames (within the sequence's `frames` "
     "range). The first difference is reported in the later file, with a note at the first "
     "file's line.",
     "HL1 studiomdl.c maps only the first file's bones onto the bone table (SimplifyModel) and "
     "then relinks every later blend by the first file's bone numbers (\"relink animations\"): "
     "a later file whose bones are in another order, or fewer, plays its tracks on other bones, "
     "and every blend is played over the first file's frame count (a shorter one holds zeros "
     "past its end, a longer one is cut). The compile succeeds but the blend is not what was "
     "exported: a warning. vbmcompiler (Pathos, studiocompiler.cpp) compares bone count, frame "
     "count, then names and parents by index and stops: an error under pathos. Source studiomdl "
     "maps each animation onto the model by bone name and keeps its own frames: off.",
     "Warning under goldsrc, error under pathos, off under source, source256 and cod. One "
     "finding per later file.",
     "aim_up.smd:5: warning: blend 2 of sequence 'aim' has bone 2 'arm' where its first file "
     "aim_mid.smd has 'shoulder'; studiomdl plays a later blend's tracks by the first file's "
     "bone numbers",
     "Export every blend of a sequence from the same rig with the same frame range, so that "
     "their `nodes` blocks are identical."},
    {"xref.rest-pose-differs", "two files disagree on a bone's rest pose",
     "Two reference files give a bone different rest transforms (warning), or an animation's "
     "first frame changes a bone's length by more than 1 % (or 0.01 units) from the reference "
     "(note). In a QC project, a reference file played only as a sequence (a ragdoll sequence "
     "in the collision model's pose) is that sequence's pose: studiomdl plays it as written, so "
     "its differences are notes. The files are compared as written: studiomdl loads every "
     "file at `$scale` and takes `$origin` (with its angle) off the roots of the model and of "
     "every sequence alike (Source studiomdl.cpp Load_Source and Cmd_Sequence copy "
     "g_defaultadjust, simplify.cpp BuildRawTransforms applies it; HL1 studiomdl.c "
     "Grab_Animation), so neither is a difference.",
     "Compilers bind each reference with its own rest pose, so LODs or bodygroups made from "
     "different rigs deform differently under the same animation; a changed bone length "
     "stretches the mesh.",
     "Rest poses: position over 0.001 units or rotation over 0.01° (the angle of the relative "
     "rotation in double, Euler, quaternion or axes alike; a float file round trip moves it by "
     "about 1e-5°). Frame 0: length over max(0.01, 1 %). In every profile (note under cod). "
     "Source: Switch-Toolbox issue 264.",
     "body.smd: 1 \"arm\" 0 pos (0 0 10)\nhead.smd: 1 \"arm\" 0 pos (0 0 12)",
     "Export every reference and animation from one rig, in its rest pose."},
    {"xref.vta-vertex-count", "a VTA has another vertex count than the reference's corners",
     "The VTA's base frame lists a different number of vertices than the reference has triangle "
     "corners. RigScope then matches them by position.",
     "Compilers match VTA vertices to the model by position, not by count, so this is fine as "
     "long as every vertex matches (`flex.unmatched-vertices` stays silent).",
     "None; a note under source and source256.",
     "(face.vta lists 911 vertices, face.smd has 7,974 corners)",
     "Nothing needed if `flex.unmatched-vertices` does not fire."},
    // ---- cod.* (catalog) ----
    {"cod.root-count", "a CoD model does not have exactly one root bone",
     "The number of `BONE i -1` lines (bones without a parent) is not 1.",
     "The CoD tools need a single root (normally `tag_origin`): with none they cannot build "
     "the hierarchy, with several they refuse the model or attach the extra roots wrongly.",
     "Exactly 1, cod only. Source: zeroy's CoD notes.",
     "NUMBONES 2\nBONE 0 -1 \"tag_origin\"\nBONE 1 -1 \"j_gun\"",
     "Parent every other root under `tag_origin` and export again."},
    {"cod.bone-matrix", "a bone's rotation rows are not orthonormal",
     "The `X`, `Y` and `Z` rows of a bone are not a pure rotation: their determinant, their "
     "lengths or their dot products are more than 0.001 off.",
     "The tools convert the rows to a quaternion, which assumes a rotation: scale or shear in "
     "the rows is silently lost or distorts the bone.",
     "Tolerance 0.001, cod only (warning).",
     "BONE 1\nOFFSET 0, 0, 10\nSCALE 1, 1, 1\nX 2, 0, 0\nY 0, 1, 0\nZ 0, 0, 1",
     "Freeze transforms (apply scale) on the rig before exporting."},
    {"cod.index-range", "an index points past the end of its list",
     "A bone, vertex, object, material or part index is negative or not below the count the "
     "file declared for that list.",
     "The tools index their arrays with the value: the export is refused, or reads whatever "
     "lies past the list.",
     "Below the declared count, cod only (error). Source: PyCoD (\"does not index\").",
     "NUMVERTS 3\n...\nTRI 0 0 0 0\nVERT 5", "Export the model again."},
    {"cod.count-mismatch", "a declared count differs from the records that follow",
     "A `NUM*` line (`NUMBONES`, `NUMVERTS`, `NUMFACES`, `NUMOBJECTS`, `NUMMATERIALS`, "
     "`NUMPARTS`, `NUMFRAMES`) announces another number of records than the file holds, or a "
     "frame lacks a part.",
     "The CoD tools read exactly the announced number of records: extra records are parsed "
     "as the next section, missing ones make the read fail.",
     "Exact match, cod only (error). Source: PyCoD.", "NUMBONES 2\nBONE 0 -1 \"tag_origin\"",
     "Export the file again; do not edit counts by hand."},
    {"cod.non-unit-scale", "a bone's `SCALE` is not 1 1 1",
     "A bone's `SCALE` line differs from `1 1 1`.",
     "PyCoD ignores the scale and SMD has no place for it: converted or re-imported models "
     "lose it, while the game may apply it.",
     "Exactly 1 1 1, cod only (warning). Seen in CoD4 mod-tools exports.",
     "BONE 3\nOFFSET 0, 0, 0\nSCALE 2, 2, 2",
     "Apply the scale in the modelling tool before "
     "exporting."},
    {"cod.part-not-in-model", "an XANIM part is not a bone of the loaded model",
     "A `PART` of the XANIM_EXPORT has no bone of that name in the XMODEL it is attached to.",
     "The game applies the part's motion by name: it moves nothing on this model.",
     "None, cod only (warning).", "PART 4 \"j_tail\" (the model has no j_tail)",
     "Rename the joint so the animation and the model agree, or attach the right model."},
    {"cod.frame-gaps", "XANIM frame numbers are not contiguous",
     "The `FRAME` numbers skip values. The first frame need not be 0; gaps after it count.",
     "The tools store frames densely from the first number: a gap shifts every later frame, so "
     "the motion plays too early and notetracks no longer line up.",
     "None, cod only (error). Source: PyCoD writer check.", "FRAME 260\n...\nFRAME 262",
     "Bake every frame of the range when exporting."},
    {"cod.notetrack-range", "a notetrack lies outside the animation's frames",
     "A notetrack's frame is before the first `FRAME` or after the last (both in the file's "
     "own numbering).",
     "The event never fires in game (a sound or effect tied to it is lost).",
     "The frame range of the XANIM, cod only (warning).",
     "NUMKEYS 1\nFRAME 500 \"fire\" (the animation ends at 300)",
     "Move the key into the animation's range."},
    {"cod.ntexport-mismatch", "an NT_EXPORT does not cover the same frames as its animation",
     "The NT_EXPORT's `FIRSTFRAME` or `NUMFRAMES` differs from the XANIM_EXPORT it belongs to.",
     "The notetracks were exported for another version of the animation: their frames point "
     "at the wrong moments.",
     "Exact match, cod only (warning). Source: PyCoD.",
     "FIRSTFRAME 0\nNUMFRAMES 40 (the anim has 60 frames)",
     "Export the animation and its notetracks together."},
    {"cod.framerate", "`FRAMERATE` is not a positive integer",
     "The XANIM's `FRAMERATE` is 0, negative or has a fraction.",
     "The binary form stores the rate as a 16-bit integer, so a fraction is rounded (29.97 "
     "becomes 30) and the animation plays at another speed; a rate of 0 or less cannot play "
     "(RigScope uses 30).",
     "A positive integer, cod only (warning).", "FRAMERATE 29.97",
     "Export at an integer frame rate (30, 60)."},
    {"cod.color-range", "vertex colours outside 0 to 1",
     "A `COLOR` component is below 0 or above 1. The message counts them and shows one.",
     "The tools clamp colours; usually harmless, but it shows the exporter wrote unexpected "
     "data.",
     "0 to 1, cod only (note). Values like -1 and 1.66 are seen in CoD4 exports.",
     "COLOR 1.66, 0.5, 0.5, 1", "Usually nothing; clamp the vertex colours if they matter."},
    {"cod.unsupported", "known CoD data that RigScope skips",
     "The export contains siege, IK or other tokens RigScope recognises but does not load.",
     "The model shown is incomplete for that data; the tools would use it.",
     "None; a reader warning.", "NUMSBONES 4",
     "Nothing needed; be aware the viewer does not "
     "show that part."},
    {"cod.version-feature", "a version 7 token in a version 5 or 6 file",
     "A token that only XMODEL_EXPORT version 7 defines (such as `VERT32` or `TRI16`) appears in "
     "an older version.",
     "The tools for the declared version do not know the token and refuse the file.",
     "None; a reader warning.", "VERSION 6\n...\nVERT32 0",
     "Export with the right version, "
     "or fix the `VERSION` line to 7 if the rest of the file is version 7."},
    {"cod.duplicate-index", "a vertex or bone index is given twice",
     "The vertex pool or the bone list defines the same index twice. The last one wins.",
     "The tools overwrite the first entry, so data written earlier is lost.",
     "None; a reader warning.", "VERT 4\n...\nVERT 4", "Export the model again."},
    {"cod.corner-incomplete", "a face corner lacks its normal, colour or UV",
     "A corner of a `TRI` has no `NORMAL`, `COLOR` or `UV` line.",
     "The tools read each corner as a fixed sequence: a missing line makes them read the next "
     "corner's data or fail.",
     "None; a reader warning.", "TRI 0 0 0 0\nVERT 0\nNORMAL 0, 0, 1\nVERT 1",
     "Export the model again."},
    {"cod.uv-count", "a UV line announces the wrong number of pairs",
     "`UV 0 u v` (a known exporter bug, note) or a `UV n` line with fewer pairs than n "
     "(error).",
     "With fewer pairs the tools read past the line; `UV 0` with a pair after it is what some "
     "exporters write and the tools accept.",
     "None; a reader note or error.", "UV 2 0.5 0.5", "Export again; nothing needed for `UV 0`."},
    {"cod.fractional-frame", "an XANIM frame number has a fraction",
     "A `FRAME` number is not an integer.",
     "The tools store integer frames: the key is rounded to a neighbouring frame.",
     "None; a reader note.", "FRAME 12.5", "Bake the animation on whole frames."},
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
    // ---- flex.* reader ids (catalog §7) ----
    {"flex.has-triangles", "a VTA file contains a `triangles` block",
     "A file read as a VTA (it has `vertexanimation`) also holds `triangles`.",
     "Compilers read a VTA only for its shapes and ignore the triangles; the file may be a "
     "reference saved with the wrong extension.",
     "None; a reader warning.", "vertexanimation\n...\nend\ntriangles\n...\nend",
     "Export the flex file without the mesh, or check you picked the right file."},
    {"flex.frame-count-mismatch", "a VTA's skeleton and vertex blocks have different frame counts",
     "`skeleton` and `vertexanimation` do not hold the same number of `time` frames.",
     "Each shape is one frame of both blocks; studiomdl pairs them by position, so names and "
     "shapes get out of step.",
     "None; a reader warning.", "skeleton\ntime 0\ntime 1\nend\nvertexanimation\ntime 0\nend",
     "Export the VTA again."},
    // ---- write.* (catalog §7) ----
    {"write.quantise-clamp", "a value was clamped to fit the binary format",
     "While writing a `*_BIN` file, a value did not fit the quantised range of its token and "
     "was clamped.",
     "The written file holds a different value from the model: a position or weight changed.",
     "The range of each quantised token (PyCoD's binary layout); a writer warning.",
     "rigscope-cli convert huge.xmodel_export huge.xmodel_bin",
     "Scale the model down, or keep the text export."},
    {"write.non-finite", "a NaN or infinite value was written out",
     "The model holds NaN or infinity (reported when read) and the writer wrote it as is.",
     "The output is as broken as the input; other tools may refuse the value's spelling.",
     "None; a writer warning.", "rigscope-cli convert broken.smd broken.smdx",
     "Fix the source file first (`mesh.nan`, `weights.nan`)."},
    {"write.bad-name", "a name with a double quote cannot be written to SMD",
     "A bone name contains `\"`, which the SMD format cannot quote.",
     "SMD has no escape for quotes: the name would end early and the file would not read "
     "back. The conversion is refused.",
     "None; a writer error.", "rigscope-cli convert model.xmodel_export model.smd",
     "Rename the bone without quotes."},
    {"write.version-dropped", "the source file's version is not kept in the output",
     "The input declared a version other than 1 and the target format (SMDX) cannot store it.",
     "The written file is version 1; material names with paths (version 2) are kept as they "
     "are.",
     "None; a writer note.", "rigscope-cli convert v2.smd v2.smdx",
     "Nothing needed, unless a tool relies on the version 2 material rules."},
    // ---- material.* (issue 18) ----
    {"material.missing", "a material name has no VMT in any game root",
     "For each material name the model uses (once per name, lower-cased, extension dropped), no "
     "`materials/<cdmaterials>/<name>.vmt` exists under any root. Roots come from `--materials`, "
     "the Settings dialog and the first folder above the model holding `materials/` or "
     "`gameinfo.txt` (with its SearchPaths). Without a QC the name is looked for alone: "
     "`materials/<name>.vmt`, else any `<name>.vmt` under `materials/`.",
     "studiomdl compiles the model anyway; the game cannot find the material and draws the "
     "purple and black checkerboard in its place.",
     "No limit: any missing name; Source profiles only (GoldSrc and CoD look textures up "
     "differently). VPK archives are not searched.",
     "triangles\nbody.bmp\n0 0 0 0 0 0 1 0 0\n(with no materials/models/hero/body.vmt under "
     "any root)",
     "Create the VMT under `materials/<cdmaterials>/`, fix `$cdmaterials` in the QC, or rename "
     "the material in the modelling tool; pass the game folder with `--materials DIR`."},
    {"material.texture-missing", "a VMT names a texture that has no VTF in any root",
     "A found VMT's `$basetexture`, `$basetexture2`, `$bumpmap` or `$normalmap` names a path "
     "with no `materials/<path>.vtf` under any root, or the VTF's header cannot be read. "
     "Engine textures, whose names start with `_` (`_rt_…`), are skipped.",
     "The material loads but the engine substitutes its error texture (the checkerboard) for "
     "the missing base texture, or draws the surface flat for a missing bump map.",
     "No limit: any missing texture; Source profiles only.",
     "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/hero/skin_d\"\n}",
     "Export the texture to VTF (VTFEdit, vtex) at `materials/<path>.vtf` or correct the path in "
     "the VMT (no extension, relative to `materials/`)."},
    {"material.vmt-syntax", "a VMT file cannot be read",
     "The KeyValues text of a VMT is broken: a string not closed on its line, a missing or extra "
     "brace, a key without a value, no shader block, or a `patch` material whose `include` is "
     "absent, missing or cyclic. Reported at the line and column in the VMT.",
     "The engine's KeyValues parser stops at the error: keys after it are lost and a material "
     "without its shader block draws as the checkerboard.",
     "No limit: any syntax error; blocks nested deeper than 64 levels and patches included "
     "more than 8 deep are errors too.",
     "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/hero/skin\n}",
     "Close the quote or brace at the reported line; give `patch` materials an `include` that "
     "exists."},
    {"material.texture-size", "a texture is not a power of two or larger than the engine loads",
     "A VTF found for a material's texture has a side that is not a power of two, or a side "
     "larger than the profile's limit.",
     "Non-power-of-two textures are padded or refused by older hardware paths and mip badly; "
     "textures over the limit are cut down or fail to load.",
     "4,096 pixels a side for `source`, 8,192 for `source256` (later branches); any side for "
     "power of two.",
     "skin.vtf: 12 x 20 pixels",
     "Resize the texture to powers of two within the limit and "
     "export the VTF again."},
    // ---- io.* (issue 15) ----
    {"io.unreadable", "the file cannot be read at all",
     "Opening or reading the file failed before any byte was parsed: it does not exist, it is a "
     "folder, permission is denied, or it is larger than the reader's limit. The message quotes "
     "the system's reason. It also fires when another program truncated or wrote the file while "
     "it was being read (an exporter saving): what was read is no version of the file, so it is "
     "not parsed; read it again when the export has finished.",
     "No compiler can read it either: studiomdl and the CoD tools stop with an I/O error. A "
     "missing file usually means a moved or renamed export, or a QC path relative to another "
     "folder.",
     "None: every profile.", "rigscope /path/to/moved_model.smd",
     "Check the path (case matters on Linux), the file's permissions, and that the export "
     "finished."},
    {"io.lfs-pointer", "the file is a Git LFS pointer, not the model",
     "The file holds the three lines Git LFS writes in place of a large file (`version "
     "https://git-lfs.github.com/spec/v1`, `oid`, `size`): the repository keeps its models in "
     "Git LFS and was cloned or downloaded without it. The message gives the size of the real "
     "file. No reader takes it, although its first line reads like an SMD's `version 1`.",
     "studiomdl, the engine and every viewer see a few bytes of text where the model should be, "
     "and fail with a confusing parse error (or a missing-bones error) about the wrong thing.",
     "None: every profile.",
     "version https://git-lfs.github.com/spec/v1\noid sha256:...\nsize 48213",
     "Install git-lfs and run `git lfs pull` in the clone (a ZIP download from the hosting site "
     "may also carry pointers)."},
    // ---- dmx.* (issue 19) ----
    {"dmx.syntax", "a DMX header, keyvalues2 token or binary record cannot be read",
     "The first line is not `<!-- dmx encoding ENC V format FMT W -->`, a keyvalues2 token is not "
     "what the grammar allows at that point, or a binary file ends inside a record, holds a count "
     "larger than the bytes left, a string index outside the string table or an unknown type id. "
     "Reading stops there; the elements read so far are kept.",
     "studiomdl's DMX loader refuses the whole file (\"Unable to load DMX file\"); nothing of the "
     "model is compiled.",
     "No limit: any occurrence; same in every profile. Binary versions 1 to 5 and 9 are known.",
     "<!-- dmx encoding keyvalues2 1 format model 1 -->\n\"DmElement\"\n{\n\t\"children\" "
     "\"element_array\" [",
     "Export the file again; a truncated copy usually means an interrupted export or transfer."},
    {"dmx.bad-reference", "an element reference points at no element, or the DAG tree has a cycle",
     "A keyvalues2 `element` value names an id no element has, a binary reference is an index "
     "outside the element list, a joint-list entry is not in the DAG tree, or a DAG node is "
     "reached twice through `children` (a shared child or a cycle). The reference reads as null; "
     "the second place of a repeated node is skipped.",
     "studiomdl follows references blindly: a missing element is an empty slot (lost bones or "
     "meshes), a cycle makes it recurse until it crashes.",
     "No limit: any occurrence; same in every profile.",
     "\"skeleton\" \"element\" \"7a3c0e1f-0000-0000-0000-000000000000\"",
     "Export again from the source scene; when editing DMX by hand, keep every id you refer to."},
    {"dmx.attribute-type", "a DMX attribute has an unknown type, or not the type its role needs",
     "An attribute is declared with a type name or id the format does not have, its value does "
     "not parse as its type (`vector3` with two numbers), or an attribute the model uses has the "
     "wrong type (a single `element` where `jointList` needs an `element_array`). The value is "
     "ignored.",
     "studiomdl reads attributes by name and type; a mismatch makes it treat the attribute as "
     "absent, so the positions, weights or transforms behind it are lost.",
     "No limit: any occurrence; same in every profile.", "\"position\" \"vector3\" \"1 2\"",
     "Write the value with the right number of components, or fix the exporter's attribute type."},
    {"dmx.missing-attribute", "an attribute the model needs is absent from a DMX element",
     "The root has none of `skeleton`, `model`, `animationList`, `combinationOperator`; a mesh has "
     "no `bindState` / `currentState`; vertex data have no positions or position indices; a face "
     "set has no `faces`; a log layer has no `times` or `values`.",
     "Without them studiomdl has nothing to compile for that part: the mesh or animation is "
     "skipped or the compile stops.",
     "No limit: any occurrence; same in every profile.",
     "\"DmeVertexData\"\n{\n\t\"name\" \"string\" \"bind\"\n\t\"jointCount\" \"int\" \"0\"\n}",
     "Export the mesh again; check that the exporter wrote the vertex data."},
    {"dmx.face-index", "a DMX face or index array points outside its vertex data",
     "A face-set corner is beyond the face-vertex arrays, a position / normal / texture index is "
     "beyond its data array, a joint index is outside the joint list, weight arrays are shorter "
     "than positions x `jointCount`, or a log has unequal times and values. Reported once per "
     "mesh (the first, and how many more); the polygons concerned are dropped.",
     "studiomdl does not check these indices: it reads past the arrays and crashes, or builds "
     "triangles from garbage vertices.",
     "No limit: any occurrence; same in every profile.",
     "\"positions\" \"vector3_array\" [\"0 0 0\", \"1 0 0\", \"0 1 0\"]\n\"positionsIndices\" "
     "\"int_array\" [\"0\", \"1\", \"7\"]",
     "Export again; if the file was edited by hand, keep the index arrays in step with the data."},
    {"dmx.encoding-unsupported", "the profile's studiomdl cannot read this DMX encoding or version",
     "The header's encoding or format version is newer than the compiler of the profile reads "
     "(Blender Source Tools' engine table), the profile's compiler has no DMX at all, or the "
     "encoding is unknown. The model is still read and shown.",
     "An older studiomdl refuses newer binary encodings outright and misreads newer format "
     "versions (renamed attributes such as `position$0`), so the compile fails or loses data.",
     "`goldsrc`, `cod`: no DMX. `source` (SDK 2013, TF2): binary 2 or keyvalues2, format 1. "
     "`source256` (SFM, CS:GO, Portal 2): binary 5, format 18; Garry's Mod only binary 2, "
     "format 1. `auto`: not checked. Source 2 (binary 9, model 22) has no profile.",
     "<!-- dmx encoding binary 9 format model 22 -->",
     "Set the exporter's DMX version to the engine's (Blender Source Tools: Scene > Source Engine "
     "Export > Engine), or export SMD."},
    {"dmx.write-loss", "something the model holds is not written to the DMX",
     "The DMX writer leaves out part of the model: the frames of a reference's animation, flex "
     "shapes without a mesh, an unweighted point's parent bone (written as a full weight), a "
     "fractional frame rate in a format that stores whole ones.",
     "The written DMX compiles, but without the part named in the note.", "None; a writer note.",
     "rigscope-cli convert ref.smd ref.dmx",
     "Convert the missing part separately (the animation or the VTA), or keep the source file."},
    // ---- syntax.truncated, write.data-dropped (issue 15) ----
    {"syntax.truncated", "the file ends before its structure is complete (cut short)",
     "The file ends inside a block or record, before a declared count is met (`NUMBONES`, "
     "`NUMVERTS`, `NUMFACES`, `NUMFRAMES`, `NUMKEYS`, an SMDX count), without the `end` of its "
     "last block, or in the middle of its last line. The location is the line (or byte offset) "
     "where the file ends; the message says what is missing.",
     "Every compiler reads a cut file as a different, smaller model or refuses it: studiomdl "
     "fails on an open `nodes` or `skeleton` and silently drops the rest of `triangles`; the "
     "CoD tools refuse an export whose counts are not met. A half-written last line (`BONE 5` "
     "of `BONE 5 4 \"hand\"`) is not another record: reading it as one gives misleading "
     "errors.",
     "None: any truncation. An error in every profile (goldsrc, source, source256 and cod), "
     "because data integrity does not depend on the compiler.",
     "NUMVERTS 2212\nVERT 0\nOFFSET 0 0 0\n...\nVERT 1203\nOFFSET 0 0 1203  (end of file)",
     "Export the file again (or copy it again: a download or copy was interrupted); check the "
     "disk was not full."},
    {"write.data-dropped", "a conversion drops data the output format cannot carry",
     "`rigscope-cli convert` writes a format without room for some of the input's data: flex "
     "shape names in SMDX, vertex colours, extra UV sets, objects, material shading and "
     "notetracks in SMD. The message counts what is dropped.",
     "Nothing is refused: the written file is valid, but whatever reads it never sees the "
     "dropped data, and converting back does not bring it back.",
     "None; a note in every profile (it is about the output, whatever the input's compiler).",
     "rigscope-cli convert head.vta head.smdx\n"
     "head.vta:1:1: note: 21 flex shape names dropped; SMDX has none [write.data-dropped]",
     "Keep the original file as the source; convert to a format that holds the data (SMD keeps "
     "VTA shape names, XMODEL keeps colours and objects)."},
    // ---- qc.* (issue 17) ----
    {"qc.missing-file", "a file the QC names is found nowhere",
     "A model, animation, VTA, collision or include file named by `$body`, `$model`, `studio`, "
     "`$sequence`, `$animation`, `flexfile`, `replacemodel`, `$collisionmodel` or `$include` is "
     "not in the `$cd` / `$pushd` folder, the QC's folder or the naming script's folder. A name "
     "without an extension was tried as `.smd` then `.dmx`.",
     "studiomdl stops at the first file it cannot open, so nothing compiles; RigScope reports "
     "every missing file at once, each at the line that names it.",
     "None: any missing file, in every profile (CoD does not use QC files).",
     "$bodygroup body\n{\n\tstudio \"body_ref\"\n}",
     "Export the file, or correct the name or folder in the QC (check `$cd` / `$pushd`)."},
    {"qc.case-mismatch", "a file the QC names is found only when case is ignored",
     "The file exists, but its name differs from the QC's spelling in upper / lower case "
     "(`Body_Ref.SMD` for `body_ref.smd`). RigScope uses it.",
     "Windows, where studiomdl runs, ignores case, so the project compiles there; on Linux or "
     "in a case-sensitive build step it does not.",
     "None: a note in every profile.", "$body body \"REF.SMD\"   (the file is ref.smd)",
     "Rename the file or write the name in the QC exactly as on disk."},
    {"qc.missing-texture", "a texture the model uses is found in no texture folder",
     "A texture a body file's triangles name (or a `$texturegroup` row) is not in any "
     "`$cdtexture` folder (every path of every `$cdtexture` line, relative to the QC's folder); "
     "without `$cdtexture`, not in the `$cd` folder nor the QC's. A name is looked up once, at "
     "the line naming it first, subfolders allowed, case ignored as Windows does. Names of a "
     "type the compiler does not load are `mesh.material-not-bmp`'s.",
     "Half-Life's studiomdl reads every texture before it writes the model (SetSkinValues, "
     "Grab_Skin): with `$cdtexture` it tries each folder and stops with \"%s not found\"; "
     "without, it opens `$cd`/NAME and stops when LoadBMP cannot (\"error -1 reading BMP "
     "image\"). Afterburner's abstudiomdl reads its .bmp and .png files too, also with "
     "`$flags 2048` (the model records each texture's size); its messages include \"%s not "
     "found\" and \"Could not find texture file %s\".",
     "An error in goldsrc and afterburner; off in source, source256 and pathos (vbmcompiler "
     "opens no image here, the engine draws .vbm models with their own materials).",
     "$cdtexture \".\"\n$body body \"ref\"   (ref.smd names missing.bmp)",
     "Put the image in a `$cdtexture` folder, add its folder to `$cdtexture`, or correct the "
     "name in the body file."},
    {"qc.unknown-command", "a command the profile's studiomdl does not know",
     "The `$command` is neither a studiomdl command of the profile (GoldSrc or Source) nor a "
     "macro. RigScope ignores it and reads on.",
     "studiomdl stops: Half-Life's ParseScript ends with \"bad command %s\", SDK 2013's "
     "ParseScript looks the token up in its command table and stops the same way. A GoldSrc "
     "command in a Source QC (or the reverse) usually means the wrong compiler or a typo.",
     "An error in every profile: Source, the commands of Source SDK 2013 studiomdl; GoldSrc, "
     "those of Half-Life's studiomdl; pathos, the 32 commands of vbmcompiler's table "
     "(qcparser.cpp), no `$include`. A sprgen sprite script (`$spritename` and no model command) "
     "gets one note saying so instead. Across every public QC RigScope was tried on (the "
     "projects whose compiled models exist among them) no model QC has one.",
     "$frobnicate 1 2 3", "Correct the command's spelling or remove it; check the profile."},
    {"qc.unknown-bone", "a QC command names a bone that no model of the project has",
     "`$attachment`, `$hbox`, `$ikchain`, `$jigglebone`, `$weightlist`, `bonetreecollapse`, "
     "`replacebone`, `$collisionjoints`, `eyeball` or `$heirarchy` (and under goldsrc and "
     "afterburner `$controller` or `$hgroup`) names a bone absent from the "
     "skeleton merged from every body file (names compared ignoring "
     "case). In Source a non-rigid `$attachment`, an `$ikchain` or a `$mouth` also finds its "
     "bone in any other file of the project (a sequence's, the collision model's), which then "
     "joins the model with its parents (SDK 2013 simplify.cpp TagUsedBones tags it in every "
     "loaded source, BuildGlobalBonetable adds it).",
     "studiomdl stops with an unknown-bone error, or (for some commands) drops the attachment or "
     "hitbox silently; the attachment then sits at the model origin in game.",
     "None: any unknown bone, in every profile. Half-Life's studiomdl.c SimplifyModel stops "
     "(Error) on each of the four bones it links, to the bones vertices use: \"unknown "
     "bonecontroller link\", \"unknown attachment link\", \"cannot find bone %s for "
     "hitgroup\", \"cannot find bone %s for bbox\". A `$lod`'s `bonetreecollapse` or "
     "`replacebone` is a warning: SDK 2013 UnifyLODs.cpp skips the line "
     "(ConvertSingleBoneTreeCollapseToReplaceBones warns \"Couldn't find bone %s for "
     "bonetreecollapse, skipping\"; BuildBoneLODMapping warns only under -verbose), and the LOD "
     "keeps the bones the line meant to fold; a `bonetreecollapse` on a bone studiomdl drops, or "
     "either under `$staticprop` (one bone left), is qc.ignored-bone. Under pathos `$attachment` "
     "and `$protected` "
     "keep an unweighted bone, so only a bone no body has is unknown (vbmcompiler "
     "studiocompiler.cpp MarkSubmodelUsedBones, LinkAttachments); an absent `$protected` or "
     "`$movement_bone` is qc.ignored-bone (it only warns).",
     "$attachment \"muzzle\" \"gun_tip\" 0 0 1",
     "Use the bone name as exported (including prefixes such as `ValveBiped.`), or add the bone "
     "with `$definebone`."},
    {"qc.ignored-bone", "`$bonemerge` or `$alwayscollapse` names a bone no model has",
     "`$bonemerge` or `$alwayscollapse` names a bone absent from the skeleton merged from every "
     "body file (names compared ignoring case); a `$bonemerge` bone that another file of the "
     "project has (a sequence's) joins the model instead, as studiomdl's TagUsedBones keeps it. "
     "Shared include files list every bone of a "
     "family of models, so most models lack some of them. Also a `$lod`'s `bonetreecollapse` "
     "on a bone studiomdl drops (no vertex on it or below it, nothing keeps it), and a "
     "`bonetreecollapse` or `replacebone` of a `$staticprop`.",
     "studiomdl only compares these names with the bones it has (SDK 2013 simplify.cpp "
     "TagUsedBones; BoneShouldCollapse): a name no bone has does nothing, and the model compiles. "
     "UnifyLODs.cpp ConvertSingleBoneTreeCollapseToReplaceBones looks a `bonetreecollapse` bone "
     "up in the bone table, warns and skips it when absent; a dropped bone has no vertex on it "
     "or below it (TagUsedBones tags every used bone's parents), and a `$staticprop` has one "
     "bone left (MakeStaticProp runs first, in RemapBones), so there was nothing to collapse.",
     "None: any absent bone, in the Source profiles; under pathos also `$protected` and "
     "`$movement_bone` (vbmcompiler studiocompiler.cpp CreateBoneTable only warns).",
     "$bonemerge \"ValveBiped.weapon_bone\"",
     "Nothing, if the list is shared on purpose; otherwise check the spelling, since a misspelt "
     "`$bonemerge` leaves the bone out of the merge and a misspelt `$alwayscollapse` keeps it."},
    {"qc.case-variant-bone",
     "GoldSrc: a QC line names the later of two bones that differ only in case",
     "`$hbox`, `$attachment`, `$controller` or `$hgroup` names a bone spelt exactly as one of "
     "the model's bones, but an earlier bone of the compiled bone table has the same name "
     "ignoring case (`TREE` before `tree`), or names a bone the compile drops (no vertex uses "
     "it or a bone below it) while a kept bone has its name in another case. Only under goldsrc "
     "and afterburner, where such bones stay two bones.",
     "Half-Life's studiomdl.c SimplifyModel builds its bone table with findNode, which compares "
     "with strcmp, so `TREE` and `tree` are two bones; then it links `$controller` and "
     "`$attachment` with stricmp and `$hgroup` and `$hbox` with strcmpi, each to the first bone "
     "that matches ignoring case. The line lands on the other bone with no message: the "
     "hitbox, attachment, controller or hit group moves with a bone its author did not name "
     "(Afterburner's japanese_books.mdl, compiled by abstudiomdl, has its `\"Open book\"` "
     "hitbox on `open book`, a bone turned 90 degrees from it). The table holds only bones "
     "vertices use, so a line naming an unweighted `Root` links to a weighted `root` the same "
     "way, where it would otherwise be qc.unknown-bone.",
     "A warning under goldsrc and afterburner. Off in the Source profiles, whose studiomdl "
     "merges such names into one bone (findGlobalBone, Q_stricmp); not checked under pathos. "
     "Other HL1 bone names are compared with strcmp (`$renamebone`, `$mirrorbone`) or not at "
     "all (`$root`, `$pivot`), so they cannot land elsewhere.",
     "$hbox 0 \"tree\" -10 -10 0 10 10 300   (the body has bones TREE, then tree)",
     "Rename one of the two bones in the source files so that the names differ in more than "
     "case."},
    {"qc.texturegroup-rows", "`$texturegroup` rows have different lengths",
     "A skin row of a `$texturegroup` lists more or fewer materials than the first row.",
     "Each skin replaces the first row's materials one for one; studiomdl rejects a short or "
     "long row (or leaves materials unreplaced in older builds).",
     "None: every row must be as long as the first, in every profile.",
     "$texturegroup skinfamilies\n{\n\t{ \"skin\" \"skin2\" }\n\t{ \"skin_b\" }\n}",
     "Give every row one material per material of the first row."},
    {"qc.skin-material-unused", "the first skin row names a material no mesh uses",
     "A material of the first `$texturegroup` row is used by no triangle of the merged model "
     "(names compared without folder, extension or case).",
     "Skins swap the first row's materials; one no mesh uses swaps nothing, so that skin looks "
     "the same as the default one.",
     "None: a warning in every profile.",
     "$texturegroup skinfamilies\n{\n\t{ \"skin\" \"not_on_any_mesh\" }\n\t{ \"skin_b\" \"other\" "
     "}\n}",
     "Use the material names of the SMD / DMX files in the first row."},
    {"qc.duplicate-name", "two sequences, animations or bodygroups share a name",
     "A `$sequence`, `$animation` or bodygroup (`$body`, `$model`, `$bodygroup`) has the name of "
     "an earlier one of its kind (ignoring case).",
     "Source studiomdl stops on a duplicate sequence or animation name (an error). GoldSrc "
     "studiomdl does not check sequences: the model compiles, but the game looks sequences up "
     "by name and only ever finds the first (a warning; Valve's own Half-Life scientist.mdl "
     "ships two `crouch_idle3`). No compiler checks bodygroups: each `$body` / `$bodygroup` "
     "makes a new bodypart, so both are compiled (Source studiomdl.cpp Cmd_Body, Cmd_Bodygroup; "
     "HL1 studiomdl.c Cmd_Body, Cmd_Bodygroup; vbmcompiler studiocompiler.cpp AddBodyGroup "
     "prints a warning; Pathos harrison.mdl holds its two `$body studio` as two bodyparts "
     "`studio`): nothing fails or is lost and the model is what the script says, a note. The "
     "name only matters to a lookup by name in the game, which finds the first (Source "
     "game/shared/animation.cpp FindBodygroupByName, Pathos VBM_GetBodyGroupIndexByName), so "
     "a later group of several choices is switched by its index (Pathos v_sequences.qc does "
     "so); GoldSrc switches bodygroups by index only (dlls/animation.cpp SetBodygroup).",
     "None: any duplicate, in every profile; the severity follows the profile and the kind.",
     "$sequence idle \"anim\"\n$sequence IDLE \"anim\" loop", "Rename one of them."},
    {"qc.include-cycle", "an `$include` includes itself, directly or through other files",
     "While reading an included file, RigScope meets an `$include` of a file that is already "
     "being read. The repeated include is skipped.",
     "studiomdl has no guard and recurses until it runs out of memory or include slots.",
     "None: any cycle, in every profile.",
     "(a.qci)\n$include \"b.qci\"\n(b.qci)\n$include \"a.qci\"",
     "Remove the include that points back, or split the shared part into its own file."},
    {"qc.undefined-macro", "a macro is used that no `$definemacro` defines before the use",
     "A command names a macro defined only later in the project, or a `$_NAME` command (the "
     "usual macro naming) that nothing defines.",
     "studiomdl expands macros in reading order; a use before the definition is an unknown "
     "command and stops the compile.",
     "None: an error in every profile.", "$_ATTACHMENT \"muzzle\" \"head\" 0 0 1",
     "Move the `$definemacro` above its first use, or include the file that defines it first."},
    {"qc.undefined-variable", "a `$NAME$` that no `$definevariable` defines",
     "A token contains `$NAME$` and no earlier `$definevariable NAME` exists. The text is kept as "
     "written.",
     "studiomdl leaves the text unexpanded, so a path or number with `$NAME$` in it names a "
     "file that does not exist or fails to parse.",
     "None: an error in every profile.", "$modelname \"$ROOT$/$NAME$.mdl\"",
     "Define the variable before its use, or correct its spelling."},
    {"qc.bodygroup-limit", "more bodygroups, or choices in one, than studiomdl allows",
     "The project has more than 32 bodygroups, or one bodygroup has more than 32 choices "
     "(`blank` included).",
     "The compiled model stores at most 32 body parts of 32 models each; studiomdl stops.",
     "32 body parts, 32 models per part (MAXSTUDIOBODYPARTS, MAXSTUDIOMODELS in studio.h), "
     "GoldSrc and Source alike.",
     "$body b0 \"ref.smd\"\n...\n$body b32 \"ref.smd\"", "Merge bodygroups, or drop choices."},
    {"qc.sequence-limit", "more sequences than the profile's studiomdl allows",
     "The project declares more sequences (`$sequence` and `$declaresequence`) than the limit "
     "of the profile.",
     "studiomdl stops when its sequence table is full.",
     "GoldSrc 256 (MAXSTUDIOSEQUENCES, Half-Life studio.h); Source 1,524 (MAXSTUDIOSEQUENCES, "
     "Source SDK studiomdl).",
     "$declaresequence s0\n...\n$declaresequence s1524",
     "Move sequences to an `$includemodel` animation model, or drop unused ones."},
    {"qc.lod-unknown-model", "`replacemodel` names a file no body uses",
     "A `$lod` / `$shadowlod` block's `replacemodel A B` (or `removemodel A`) names an A that is "
     "not the file of any `$body`, `$model` or `studio` choice (compared without extension, "
     "folder separators and case).",
     "studiomdl first looks A up among the files it loaded, from the `$pushd` / `$cd` folder in "
     "force (`Cmd_ReplaceModel`): when none is found it stops with \"Unknown replace model\" "
     "(an error). When A finds the file but is not the name the body command wrote (say "
     "`$model x \"mdl/head.dmx\"` and, after `$pushd \"mdl\"`, `replacemodel \"head.dmx\"`), it "
     "compiles, but `GetModelLODSource` matches LODs by the written name, so the LOD silently "
     "keeps the full-detail mesh (a warning that points at the body command).",
     "None: the severity depends on the case above in every profile.",
     "$lod 20\n{\n\treplacemodel \"other_ref\" \"ref_lod1\"\n}",
     "Name the reference file exactly as the body command does."},
    {"qc.limit", "a hard limit against hostile scripts was reached",
     "A token longer than 64 KiB after expansion, more than 262,144 tokens in one file or in "
     "all, includes nested deeper than 32 or more than 4,096 files or 64 MB in all, macros "
     "nested deeper than 32, or blocks deeper than 64. The part over the limit is not read.",
     "No real project comes near these limits: a script that does is broken or built to hang "
     "the tools (a macro that doubles at every level expands to billions of tokens).",
     "RigScope's own limits; studiomdl has none and runs out of memory.",
     "$definemacro forever \\\\\n$forever\n$forever",
     "Remove the self-expanding macro or the runaway include; split huge generated files."},
    {"qc.syntax", "the script's structure is broken",
     "A `}` without a matching `{`, a `{` without a command, a line that does not start with a "
     "`$command`, `$popd` without `$pushd`, a bodygroup line other than `studio FILE` / "
     "`blank`, or a `$sequence` activity (`ACT_…`) not followed by its weight.",
     "studiomdl reads commands one token at a time; a stray token ends the compile with an "
     "unknown-command or syntax error. An activity takes the next word as its weight: Source "
     "(`Option_Activity`, `verify_atoi`) stops on a word that is not a number; HL1 "
     "(`Cmd_Sequence`, `atoi`) takes it as weight 0, so `ACT_IDLE_ANGRY loop` loses its `loop` "
     "(Pathos's harrison.mdl was built so); with nothing after the activity both stop (\"line is "
     "incomplete\").",
     "An error in every profile, but a word read as an activity's weight is a warning under "
     "goldsrc and pathos (the model compiles without the option).",
     "$body body \"ref.smd\"\n}", "Balance the braces and start each line with a command."},
    {"qc.includemodel", "`$includemodel` names a compiled model that is not read",
     "The QC pulls in a compiled `.mdl` (usually shared animations). RigScope reads sources, "
     "not compiled models, so its sequences are not part of the project here.",
     "studiomdl only records the name; the game loads that model at run time. Missing it shows "
     "as a T-pose in game, not as a compile error.",
     "None: a note in every profile.", "$includemodel \"humans/male_shared.mdl\"",
     "Nothing to fix; open the animation project's own QC to check its sequences."},
    {"qc.unread-file", "a file the QC names exists but is not a readable model",
     "The file was found, but it could not be read (an I/O error) or the format registry has no "
     "reader for its content.",
     "studiomdl stops when a model file does not parse.", "None: an error in every profile.",
     "studio \"garbage.xyz\"", "Point the command at the exported SMD / DMX, or export it again."},
    // ---- compiled.* (issue 29) ----
    {"compiled.corrupt", "a compiled model's offset or count points outside its file",
     "While reading a compiled `.mdl`, `.vvd` or `.vtx`, an offset or count in a header or "
     "record points past the end of the file (or before its start), or an index names an "
     "element that does not exist (a bone, a vertex, a material). The location is the byte "
     "offset of the field or record that holds the bad value.",
     "The engine trusts these offsets: it reads garbage, draws a broken model or crashes. "
     "RigScope skips the damaged part and shows the rest.",
     "None; an error in every profile. Layouts: Source SDK 2013 studio.h and optimize.h, the "
     "Half-Life SDK studio.h (docs/compiled.md).",
     "hero.mdl:@0x009C: error: 40 bones at 0x1F40 run past the end of the file (4096 bytes)",
     "Compile the model again; a truncated download or a partial copy is the usual cause."},
    {"compiled.bad-version", "a compiled model file has an unknown magic or version",
     "A `.mdl` does not start with `IDST` (or `IDSQ` for a GoldSrc sequence group), or its "
     "version is not 44 to 49 (Source) or 10 (GoldSrc); a `.vvd` is not `IDSV` version 4; a "
     "`.vtx` is not version 7.",
     "Each engine branch loads only the versions it knows; another version is refused or "
     "misread.",
     "None; an error in every profile.",
     "prop.mdl:@0x0004: error: mdl version 53, expected 44 to "
     "49 (Source) or 10 (GoldSrc)",
     "Open the model with the tools of the game that made it; Source 2 and Apex models are "
     "other formats."},
    {"compiled.checksum-mismatch", "a .vvd, .vtx or .phy belongs to another compile of the .mdl",
     "studiomdl writes the same checksum into the `.mdl` and every companion. This file carries "
     "a different one, so it comes from another compile.",
     "The engine refuses to load a model whose companions do not match (\"mismatched "
     "checksum\" in the console) and shows the error model.",
     "None; an error in every profile.",
     "hero.dx90.vtx:@0x0010: error: checksum 0x1A2B3C4D, "
     "the .mdl has 0x55667788",
     "Copy all files of one compile together, or compile again."},
    {"compiled.missing-companion", "a compiled model's companion file is missing",
     "A Source `.mdl` with vertices has no `.vvd` or no `.vtx` (`.dx90.vtx`, `.dx80.vtx`, "
     "`.sw.vtx`, `.vtx`) beside it, or a GoldSrc model without textures has no `NAMEt.mdl`, "
     "or one of its sequence groups (`NAME01.mdl` ...) is missing.",
     "Without them the engine has no vertices or triangles to draw (the error model) or no "
     "textures / animations for the model.",
     "None; an error in every profile.", "hero.mdl:1:1: error: no hero.vvd beside the model",
     "Copy every file studiomdl wrote (`.mdl`, `.vvd`, `.vtx`, `.phy`, `.ani`) together."},
    {"compiled.unread-companion", "part of the model is in a file RigScope does not read",
     "A GoldSrc-format (`IDST` version 10) `.mdl` has a `NAME.vbm` beside it: the Pathos "
     "engine's studiomdl keeps the model's meshes and textures there and leaves a placeholder "
     "texture in the `.mdl`, whose skin table then names the `.vbm`'s textures.",
     "Nothing is wrong with the model. RigScope shows what the `.mdl` holds (bones, sequences, "
     "events, hitboxes, attachments) and draws no mesh; its skin references are not checked "
     "against the placeholder.",
     "A note in every profile.",
     "crate.mdl:@0x0000: note: a Pathos engine model: its meshes and textures are in "
     "crate.vbm, which RigScope does not read; bones, sequences, hitboxes and attachments are "
     "shown",
     "None needed; open the Pathos QC and SMD sources to see the meshes."},
    // ---- jiggle.* (issue 32; docs/jiggle.md) ----
    {"jiggle.unknown-parameter", "studiomdl does not know this $jigglebone word",
     "Inside `$jigglebone NAME { ... }` a property group is not one of `is_flexible`, "
     "`is_rigid`, `has_base_spring`, `is_boing`, or a parameter is not one its group accepts "
     "(`stiffness` belongs to `has_base_spring`, `yaw_stiffness` to `is_flexible`), or a "
     "parameter lacks its values.",
     "studiomdl's $jigglebone parser stops the compile with \"invalid syntax\" at the first "
     "word it does not know.",
     "Source profiles; an error. Parameters per group: docs/jiggle.md.",
     "$jigglebone \"tail\" { is_flexible { stiffness 50 } }",
     "Use the group's own names: `yaw_stiffness` / `pitch_stiffness` in `is_flexible`, "
     "`stiffness` in `has_base_spring`."},
    {"jiggle.clamped", "a jiggle stiffness or damping outside what studiomdl keeps",
     "A stiffness or damping value (`yaw_stiffness`, `pitch_damping`, `stiffness`, `damping` "
     "...) is below 0 or above 1000.",
     "studiomdl clamps it to 0..1000 without a word, so the bone is stiffer or softer than the "
     "number written.",
     "Source profiles; a warning. Range from studiomdl's parser.", "yaw_stiffness 5000",
     "Write a value within 0..1000."},
    {"jiggle.no-kind", "a jiggle bone with no property group",
     "`$jigglebone NAME { }` has none of `is_flexible`, `is_rigid`, `has_base_spring`, "
     "`is_boing`.",
     "The bone is marked as a jiggle bone but the engine has nothing to simulate: it follows "
     "its animation as if the command were not there.",
     "Source profiles; a warning.", "$jigglebone \"tail\" { }",
     "Add the property group the bone needs, or remove the command."},
    {"jiggle.conflicting-kinds", "two jiggle property groups that exclude each other",
     "A $jigglebone has both `is_flexible` and `is_rigid`, or both `has_base_spring` and "
     "`is_boing`.",
     "The engine runs one of them: the flexible springs (a rigid tip's length stays as the "
     "flexible group says), and the base spring (is_boing is never run).",
     "Source profiles; a warning. Engine behaviour: Source SDK 2013 jigglebones.cpp.",
     "$jigglebone \"ear\" { is_rigid { } is_flexible { } }", "Keep one group of each pair."},
    {"jiggle.zero-length", "a jiggle bone whose tip sits on its base",
     "An `is_flexible` or `is_rigid` jiggle bone has `length` 0 or less.",
     "The engine places the tip `length` units along the bone's +Z and points the bone from "
     "its base to the tip; with no length there is no direction and the bone snaps to "
     "arbitrary orientations.",
     "Source profiles; a warning.", "is_rigid { length 0 }",
     "Set `length` to the distance from the bone to the end of what it moves."},
    {"jiggle.min-above-max", "a jiggle constraint whose minimum exceeds its maximum",
     "A `yaw_constraint`, `pitch_constraint`, `left_constraint`, `up_constraint` or "
     "`forward_constraint` has its first value above its second.",
     "The engine clamps to the minimum first and to the maximum after: the tip or base always "
     "sits at a limit and never swings.",
     "Source profiles; a warning.", "yaw_constraint 30 -30", "Write the minimum first."},
    {"jiggle.wide-constraint", "a jiggle yaw or pitch constraint past 90 degrees",
     "A `yaw_constraint` or `pitch_constraint` goes below -90 or above 90 degrees (90 itself, "
     "as Valve's own survivors write it, is not flagged).",
     "The engine measures the tip's yaw and pitch in the bone's frame; past 90 degrees the tip "
     "swings behind its base, where that frame turns over and the bone flips from one side to "
     "the other (the flipping modders report at +-90).",
     "Source profiles; a warning. Engine behaviour: Source SDK 2013 jigglebones.cpp.",
     "yaw_constraint -120 120", "Keep yaw and pitch constraints within -90..90 degrees."},
    {"jiggle.dropped-bone", "a jiggle bone studiomdl leaves out of the model",
     "The bone a $jigglebone names exists in the sources, but no vertex of any body is weighted "
     "to it or to a bone below it, and nothing else in the QC keeps it, so studiomdl drops it "
     "(qc.md, \"bones studiomdl drops\").",
     "studiomdl only prints that the bone is unused; the compiled model has no such bone and "
     "no jiggle.",
     "Source profiles; a warning.", "$jigglebone \"ponytail\" { is_flexible { } }",
     "Weight the vertices that should swing to the bone (or a bone below it), or keep it with "
     "$definebone."},
    {"jiggle.moves-nothing", "a jiggle bone no vertex follows",
     "A $jigglebone names a bone the compiled model keeps (a $definebone, an attachment...), but "
     "no vertex is weighted to it or to any bone below it.",
     "The engine simulates the bone every frame, but no vertex moves with it directly. That can "
     "be meant: Valve's own L4D2 survivors ship braid jiggle bones with no vertex, so this is "
     "a note.",
     "Source profiles; a note.", "$jigglebone \"antenna\" { is_rigid { length 12 } }",
     "Weight the vertices that should swing to the bone, or remove the command."},
    // ---- flex.* of a QC face (issue 32) ----
    {"flex.unknown-shape", "a % rule names a flex shape the model does not have",
     "A `%NAME = ...` rule sets, or reads as `%NAME`, a flex descriptor that no `flex` / "
     "`flexpair` key, DMX delta state (NAMEL / NAMER when stereo), `localvar`, `eyelid` or "
     "`mouth` declared before it; or a `flex` key names a frame its flexfile lacks, or a "
     "`dmxeyelid` a delta state the DMX lacks.",
     "studiomdl stops (\"Rule for unknown flex\", \"unknown flex\"). The lookup is by name, "
     "case-insensitive, in file order: a rule before the shape's declaration fails too.",
     "Source profiles; an error. Source: studiomdl Option_Flexrule, Option_Flex, "
     "Option_DmxEyelid.",
     "flexfile \"face.vta\" {\n\tflex \"smile\" frame 1\n}\n%smiel = smile_ctrl",
     "Fix the spelling, declare the shape (a `localvar` for a value with no shape), or move the "
     "rule after the declaration."},
    {"flex.unknown-controller", "a % rule reads a name that is no flex controller",
     "A word in a rule's expression (not `%`-prefixed, not max / min, not a number) is not the "
     "name of a `flexcontroller` declared before the rule. A number written `.5` is read as a "
     "name too.",
     "studiomdl stops (\"unknown controller\").",
     "Source profiles; an error. Source: studiomdl Option_Flexrule.",
     "flexcontroller mouth smile\n%smile = smiel", "Declare the controller, or fix the name."},
    {"flex.rule-syntax", "a % rule studiomdl cannot parse",
     "An unmatched `)`, `max` / `min` without `(a, b)`, a comma outside them, or an empty "
     "expression.",
     "studiomdl stops (\"unmatched closed parentheses\", \"missing comma\", \"too many "
     "comma's\").",
     "Source profiles; an error. Source: studiomdl Option_Flexrule (its operator-precedence "
     "pass).",
     "%smile = max(a b)", "Write max(a, b); balance the parentheses."},
    {"flex.rule-misread", "a % rule studiomdl compiles otherwise than it reads",
     "A `-` first in the expression: studiomdl makes it a subtraction with nothing to subtract "
     "from (a negation needs `(`, an operator or a comma before it), so the engine reads "
     "garbage. Or a `(` never closed: studiomdl closes it at the end, which may not be what was "
     "meant (Valve's own L4D2 face rules have one).",
     "The model compiles; the rule computes something else than written.",
     "Source profiles; a warning. Source: studiomdl Option_Flexrule.",
     "%frown = -a\n%lip = lip * (1 - min(jaw / 2, 1)",
     "Write (0 - a) or -1 * a; close the parenthesis where it belongs."},
    {"flex.eyelid-range", "an eyelid target outside the eyeball",
     "A lowerer, neutral or raiser target of `eyelid` / `dmxeyelid` is farther from the eye's "
     "centre (up or down) than the eye's radius (half the eyeball diameter).",
     "studiomdl stops (\"Eyelid ... out of range\"): the lid height is an angle on the eye.",
     "Source profiles; an error. Source: studiomdl Option_Eyelid / Option_DmxEyelid.",
     "eyeball eye_r head 0 0 60 eye_r 1 4 iris 0.6\ndmxeyelid upper head.dmx lowerer F01 -0.8 "
     "neutral F00 0.1 raiser F02 0.3 righteyeball eye_r lefteyeball eye_l",
     "Measure the targets from the eye's centre; keep them within its radius."},
    {"flex.controller-limit", "more flex controllers than studiomdl allows",
     "The model declares more `flexcontroller`s (with those studiomdl adds for a DMX "
     "combination operator) than the limit.",
     "studiomdl stops (\"Too many flex controllers\").",
     "96 (MAXSTUDIOFLEXCTRL, Source SDK 2013 studio.h); source and source256.",
     "(a face with 97 flexcontroller names)",
     "Drive several shapes from one controller through % rules, or drop unused controllers."},
    {"flex.controller-range", "a flex controller range that leaves out 0",
     "`flexcontroller TYPE range MIN MAX NAME` with MIN above 0, MAX below 0, or MIN not below "
     "MAX.",
     "A controller rests at 0 clamped into its range: a range without 0 never rests at 0, so "
     "the face is never neutral; an empty range cannot move.",
     "Source profiles; a warning.", "flexcontroller mouth range 0.2 1 smile",
     "Use a range that holds 0 (0 1, or -1 1 for a two-way controller)."},
    {"flex.controller-unused", "a flex controller no rule reads",
     "No % rule reads the controller (`eyes` controllers are read by the engine and are not "
     "flagged).",
     "Its slider in Faceposer moves nothing. Templates often declare controllers a model does "
     "not use, so this is a note.",
     "Source profiles; a note.", "flexcontroller mouth smile frown\n%smile = smile",
     "Write the rule that uses it, or remove it."},
    {"flex.shape-unreached", "a flex shape no rule sets",
     "A shape (a `flex` key, or a DMX delta state with `noautodmxrules`) has a descriptor no % "
     "rule sets, and it is not an eyelid the eyes drive.",
     "The engine sets descriptors only through rules: the shape is compiled (it costs memory) "
     "but never moves in game.",
     "Source profiles; a warning.",
     "flexfile \"face.vta\" {\n\tflex \"smile\" frame 1\n\tflex \"frown\" frame 2\n}\n"
     "flexcontroller mouth smile\n%smile = smile",
     "Write a rule for it (`%frown = frown`), or drop the key."},
    {"flex.corrective-missing-part", "a corrective shape whose parts are missing",
     "A DMX delta state named like a corrective (`a_b`: the shape for a and b together) names a "
     "part that is no delta state of the DMX.",
     "The combination operator drives a corrective by its parts' weights: with a part missing, "
     "the corrective never fires (or fires with the wrong shape).",
     "Source profiles; a warning.",
     "(a DMX with delta states smile, smile_jawopen and no "
     "jawopen)",
     "Rename the corrective after its parts, or add the missing part."},
    // ---- phys.* (issue 31) ----
    {"phys.costly-collision", "more convex pieces than $maxconvexpieces allows",
     "With `$concave` (props) or `$concaveperjoint` (ragdolls) studiomdl hulls every connected "
     "part of the collision mesh on its own. When a prop, or one bone of a ragdoll, ends up with "
     "more pieces than `$maxconvexpieces` allows, studiomdl prints \"COSTLY COLLISION "
     "MODEL!!!! (N parts - M allowed)\".",
     "A prop then gets one convex hull around the whole mesh (doorways and holes fill up); a "
     "ragdoll bone loses its solid. The model compiles, but it does not collide as modelled.",
     "Source: 20 pieces unless `$maxconvexpieces` says otherwise (SDK 2013 studiomdl; later "
     "branches raised the default to 40). Counted as studiomdl does: connected faces after "
     "welding vertices that share a position and a normal (`$weldposition`, `$weldnormal`).",
     "$collisionmodel \"boxes_phys.smd\" {\n\t$concave\n}\n// boxes_phys.smd: 30 separate "
     "boxes",
     "Merge small parts in the collision mesh, or raise the limit with `$maxconvexpieces N` "
     "(every piece costs collision time in game)."},
    {"phys.too-many-solids", "a ragdoll with more than 24 solids",
     "A `$collisionjoints` model gives one solid to each bone that has collision geometry; "
     "this model has more than 24 of them.",
     "The game's ragdoll code (ragdoll_shared.cpp, RAGDOLL_MAX_ELEMENTS) refuses a collision "
     "model of more than 24 solids: the model never becomes a ragdoll.",
     "Source: 24 solids (Source SDK 2013 game/shared/ragdoll_shared.h).",
     "$collisionjoints \"ragdoll_phys.smd\"\n// ragdoll_phys.smd: geometry on 33 bones",
     "Merge small bones with `$jointmerge PARENT CHILD`, skip them with `$jointskip`, or weight "
     "their collision vertices to a parent bone."},
    {"phys.not-concave", "separate collision parts without $concave",
     "The collision mesh of a prop (or the part of a ragdoll's mesh on one bone) falls into "
     "several separate parts, and the block has no `$concave` (`$concaveperjoint` for "
     "ragdolls).",
     "Without it studiomdl builds one convex hull around every vertex: gaps, holes and "
     "hollows between the parts become solid in game. When a prop's collision file is one of "
     "its `$body` files (the render mesh reused for physics, as momentum's world-model guns "
     "and L4D2's forklift tire do), one hull around the model is evidently what was asked "
     "for: a note there.",
     "Source: `$concave` / `$concaveperjoint` (studiomdl collisionmodel.cpp "
     "ProcessSingleBody / ProcessJointedModel). Warning; a note for a prop whose collision "
     "file is a `$body`'s.",
     "$collisionmodel \"two_boxes_phys.smd\"\n// two_boxes_phys.smd: two boxes apart",
     "Add `$concave` to the `$collisionmodel` block (`$concaveperjoint` for "
     "`$collisionjoints`)."},
    {"phys.flat-piece", "a collision piece flatter than 0.5 inch",
     "A connected piece of the collision mesh lies within a slab 0.5 inch thick (a plane, a "
     "single face), and `$remove2d` is not given. The usual cause is hard edges: faces that "
     "do not share smoothing groups do not share vertices, so every face becomes a flat piece.",
     "studiomdl prints \"Model has 2-dimensional geometry\" and gives up the pieces: a prop gets "
     "one hull around the whole mesh, a ragdoll bone loses its solid.",
     "Source: 0.5 inch (studiomdl g_epsilon_2d, IsApproximatelyPlanar).",
     "$collisionmodel \"plane_phys.smd\" {\n\t$concave\n}\n// plane_phys.smd: a box and a "
     "flat quad",
     "Give every collision piece one smoothing group, remove flat parts, or add `$remove2d` to "
     "drop them."},
    {"phys.vertex-multiple-bones", "a ragdoll collision vertex on several bones",
     "A vertex of a `$collisionjoints` mesh is weighted to more than one bone (after "
     "studiomdl's weight cull).",
     "studiomdl puts every face with a vertex on a bone into that bone's hull: the face then "
     "belongs to several hulls, the hulls overlap at the joint and the ragdoll jitters or "
     "locks (\"the head hull took a vertex of the neck\").",
     "Source: any vertex with more than one bone of weight after the cull (0.05).",
     "triangles\nphys\n0  0 0 0  0 0 1  0 0  2 1 0.5 2 0.5",
     "Weight every collision vertex 100% to one bone."},
    {"phys.vertex-unknown-bone", "a ragdoll collision vertex on a bone the model drops",
     "A vertex of a `$collisionjoints` mesh is weighted to a bone that the compiled model "
     "does not have (absent from every body, or dropped because no visible vertex uses it).",
     "studiomdl skips such bones (\"physics for unused bone\"): the faces on them join no "
     "solid and that part of the ragdoll has no collision.",
     "Source: the compiled skeleton (docs/qc.md, dropped bones).",
     "$collisionjoints \"ragdoll_phys.smd\"\n// ragdoll_phys.smd weights vertices to "
     "'helper', a bone no body uses",
     "Weight the collision vertices to bones the visible model keeps, or keep the bone "
     "(`$definebone`, a vertex on it)."},
    {"phys.constraint-no-solid", "$jointconstrain on a bone with no solid",
     "A `$jointconstrain` names a bone that has no solid (no collision vertex on it, skipped or "
     "merged away), or the root solid; or names no bone of the collision mesh at all.",
     "studiomdl stops with \"Rotation constraint on bone ... which does not appear in "
     "collision model\" (or \"which has no parent\"). A name the mesh lacks is ignored with "
     "\"Can't find joint\" (a warning): the joint stays locked.",
     "Source: studiomdl BuildRagdollConstraint / CCmd_JointConstrain.",
     "$collisionjoints \"ragdoll_phys.smd\" {\n\t$jointconstrain \"no_geometry\" x limit -30 "
     "30 1\n}",
     "Constrain bones that have collision geometry, and check the bone name."},
    {"phys.constraint-range", "a $jointconstrain with an invalid limit",
     "`$jointconstrain BONE AXIS TYPE MIN MAX [FRICTION]` has MIN greater than MAX or an axis "
     "other than x, y or z (errors), a limit below -180 or above 180 degrees, or a type other "
     "than free, fixed or limit (warnings).",
     "studiomdl stops with \"Invalid joint constraint ... Can't build ragdoll!\" on the errors; "
     "a limit past 180 degrees lets the joint turn further than any real joint, an unknown type "
     "is ignored (the axis stays locked).",
     "Source: studiomdl CCmd_JointConstrain; the limits are degrees.",
     "$jointconstrain \"bip_forearm\" z limit 40 -10 1",
     "Write MIN <= MAX within -180..180 on axis x, y or z, with type free, fixed or limit."},
    {"phys.mass-range", "a mass or inertia out of range",
     "`$mass` or `$inertia` is not above 0, a solid weighs more than 50000 kg, or solids whose "
     "share of `$mass` is below 1 kg were raised to 1 kg so that the model weighs more than "
     "`$mass` says.",
     "studiomdl gives every solid at least 1 kg; the engine clamps masses to 50000 kg "
     "(VPHYSICS_MAX_MASS); an inertia of 0 makes a solid spin freely. The model does not weigh "
     "or turn as written.",
     "Source: 1 kg per solid (studiomdl CollisionModel_Write), 50000 kg "
     "(public/vphysics_interface.h).",
     "$collisionmodel \"crate_phys.smd\" {\n\t$mass 0\n}",
     "Give `$mass` the model's weight in kg (or `$automass`) and `$inertia` a positive value."},
    {"phys.mesh-larger", "a collision mesh far larger than the visible model",
     "The collision mesh reaches beyond the bounds of the visible model by more than half the "
     "visible model's size (and more than 1 unit).",
     "In game the prop collides with air far from where it is drawn. The usual cause is an "
     "export in another unit or scale, or a transform not applied to the collision mesh.",
     "Source: half the visible model's largest size (a RigScope heuristic).",
     "$body body \"crate.smd\"\n$collisionmodel \"crate_phys_in_cm.smd\"",
     "Export the collision mesh in the same units and place as the visible mesh."},
    {"phys.unknown-option", "an unknown command in a collision block",
     "A `$command` inside `$collisionmodel { }` or `$collisionjoints { }` is none of the "
     "collision commands studiomdl knows.",
     "studiomdl prints \"Unknown command ... in collision series\" and ignores it: whatever it "
     "was meant to set keeps its default.",
     "Source: the commands of studiomdl ParseCollisionCommands.",
     "$collisionmodel \"crate_phys.smd\" {\n\t$masss 20\n}",
     "Correct the command's spelling or remove it."},
    {"phys.ragdoll-unstable", "the ragdoll misbehaves in the drop test",
     "The drop test puts the predicted solids into a rigid-body engine (Bullet) with their "
     "masses, damping, inertia and `$jointconstrain` limits, drops them on a floor from 12 "
     "inches and steps at 1/60 s for up to 20 s. It fires when the ragdoll does not come to "
     "rest, when a joint comes apart (the child's origin leaves its pivot by more than 1 inch "
     "or 10 % of the bone), when a joint keeps shaking, when two joined solids differ in mass "
     "by more than 1:100, or when two solids that are not joined rest more than 0.5 inch "
     "inside each other. It runs only on request: `rigscope-cli physics X.qc --drop` or "
     "Simulate ragdoll in the window.",
     "The model compiles, but in the game the ragdoll twitches on the ground (\"moves like "
     "possessed\"), stretches, sinks its limbs into its body or flies apart: what "
     "`vcollide_wireframe` shows only after the compile.",
     "Source profiles; a warning, located at `$collisionjoints`. Bullet is not the game's "
     "engine (IVP / Havok): the thresholds are loose, and a finding is worth a look in the "
     "game rather than a verdict.",
     "$collisionjoints \"ragdoll.smd\" {\n\t$jointconstrain \"arm\" z limit 170 180\n}",
     "Keep the bind pose inside each joint's limits, give neighbouring solids comparable masses "
     "(`$jointmassbias`), and keep hulls of solids that are not joined apart from each other."},
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
