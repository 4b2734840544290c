#pragma once

#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>

#include "app/document/document.h"
#include "render/model_scene.h"

namespace rigscope::core {
struct CompiledSequence;
struct CompiledEvent;
} // namespace rigscope::core

namespace rigscope::app {

// --bodygroup NAME=N / --skin N / --lod N of the command line on a loaded document (waits for
// the reload). Empty string on success, else what is wrong (no QC project or compiled model
// open, unknown bodygroup, choice, skin or LOD out of range). A compiled model's bodygroups are
// its bodyparts, N its model; its LODs the .vtx's (0 = the full model).
QString applyQcCommandLine(Document& doc, const QList<QPair<QString, int>>& bodygroups, int skin,
                           int lod = -1);

// What the timeline adds to the name of the compiled model's animation `animation` when its
// sequence is a delta: " · delta", " · subtract stand 0" (empty otherwise).
QString qcSequenceNote(const core::QcReport& qc, int animation);

// The sequence of a compiled model whose animation is `animation` of its file (null: none).
const core::CompiledSequence* compiledSequence(const core::CompiledModelInfo& compiled,
                                               int animation);
// An event of a compiled sequence as its timeline marker says it (issue 29): the name of a
// named (v49) event with its number, else the number, then the options and, for Source, the
// cycle: "AE_CL_PLAYSOUND (event 1004): step · cycle 0.50", "event 5004: common/step1.wav".
QString compiledEventText(const core::CompiledEvent& event, bool source);

// Attachments (named axes) and hitboxes (wire boxes coloured by group) of a QC project, on the
// joints of the model shown (matched by bone name).
std::vector<render::SceneMarker> qcMarkers(const core::QcReport& qc, const core::Model& shown);
// The same for a compiled model (issue 29): its attachments and its hitbox sets' boxes.
std::vector<render::SceneMarker> compiledMarkers(const core::CompiledModelInfo& compiled,
                                                 const core::Model& shown);
// Every marker of the document's primary model: a QC project's or a compiled model's, and its
// jiggle bones with their limits (issue 32). The viewport and --screenshot draw these.
std::vector<render::SceneMarker> documentMarkers(const Document& doc, const core::Model& shown);

} // namespace rigscope::app
