#pragma once

// The values the user gave a document's flex shapes (the Flex dock, --flex): one left value and
// one right value per shape, the right NaN while the shape is mono. core::SceneEvaluator morphs
// the model with them (setting()). Kept by shape name across reloads.

#include <vector>

#include <QtCore/QStringList>

#include "core/pose/scene_evaluator.h"

namespace rigscope::app {

class FlexValues {
public:
    // The shapes of a new scene; with `keep`, a shape keeps the value its name had.
    void reset(const QStringList& names, bool keep);
    const QStringList& names() const { return m_names; }
    float left(int shape) const;
    float right(int shape) const; // the left value while mono
    // False when nothing changed (or the shape does not exist).
    bool setMono(int shape, float value);
    bool setStereo(int shape, float left, float right);
    void zero();
    core::FlexSetting setting() const { return {m_left, m_right}; }

private:
    bool valid(int shape) const { return shape >= 0 && shape < int(m_left.size()); }
    QStringList m_names;
    std::vector<float> m_left;
    std::vector<float> m_right; // NaN: mono
};

} // namespace rigscope::app
