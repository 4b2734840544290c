#include "app/document/flex_values.h"

#include <QtCore/QHash>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rigscope::app {

namespace {
constexpr float kMono = std::numeric_limits<float>::quiet_NaN();
}

void FlexValues::reset(const QStringList& names, bool keep)
{
    QHash<QString, float> old;
    for (int i = 0; keep && i < m_names.size(); ++i) {
        old.insert(m_names[i], m_left[std::size_t(i)]);
    }
    m_names = names;
    m_left.assign(std::size_t(names.size()), 0.0f);
    m_right.assign(std::size_t(names.size()), kMono);
    for (int i = 0; keep && i < names.size(); ++i) {
        m_left[std::size_t(i)] = old.value(names[i], 0.0f);
    }
}

float FlexValues::left(int shape) const
{
    return valid(shape) ? m_left[std::size_t(shape)] : 0.0f;
}

float FlexValues::right(int shape) const
{
    if (!valid(shape)) {
        return 0.0f;
    }
    const float r = m_right[std::size_t(shape)];
    return std::isnan(r) ? m_left[std::size_t(shape)] : r;
}

bool FlexValues::setMono(int shape, float value)
{
    if (!valid(shape) ||
        (m_left[std::size_t(shape)] == value && std::isnan(m_right[std::size_t(shape)]))) {
        return false;
    }
    m_left[std::size_t(shape)] = value;
    m_right[std::size_t(shape)] = kMono;
    return true;
}

bool FlexValues::setStereo(int shape, float left, float right)
{
    if (!valid(shape) ||
        (m_left[std::size_t(shape)] == left && m_right[std::size_t(shape)] == right)) {
        return false;
    }
    m_left[std::size_t(shape)] = left;
    m_right[std::size_t(shape)] = right;
    return true;
}

void FlexValues::zero()
{
    std::fill(m_left.begin(), m_left.end(), 0.0f);
    std::fill(m_right.begin(), m_right.end(), kMono);
}

} // namespace rigscope::app
