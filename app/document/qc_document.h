#pragma once

#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>

#include "app/document/document.h"
#include "render/model_scene.h"

namespace rigscope::app {

// --bodygroup NAME=N / --skin N of the command line on a loaded document (waits for the
// reload). Empty string on success, else what is wrong (no QC open, unknown bodygroup, choice
// or skin out of range).
QString applyQcCommandLine(Document& doc, const QList<QPair<QString, int>>& bodygroups, int skin,
                           int lod = -1);

// What the timeline adds to the name of the compiled model's animation `animation` when its
// sequence is a delta: " · delta", " · subtract stand 0" (empty otherwise).
QString qcSequenceNote(const core::QcReport& qc, int animation);

// Attachments (named axes) and hitboxes (wire boxes coloured by group) of a QC project, on the
// joints of the model shown (matched by bone name).
std::vector<render::SceneMarker> qcMarkers(const core::QcReport& qc, const core::Model& shown);
// The same for a compiled model (issue 29): its attachments and its hitbox sets' boxes.
std::vector<render::SceneMarker> compiledMarkers(const core::CompiledModelInfo& compiled,
                                                 const core::Model& shown);

} // namespace rigscope::app
