#pragma once
// Helpers for the render tests (header only: only render tests include it).

#include <memory>

#include <QtTest/QtTest>

#include "render/viewport.h"

namespace rigscope::test {

// A 256 x 256 viewport without MSAA (baselines are llvmpipe images), shown and exposed; null
// when the window system never exposes it.
inline std::unique_ptr<render::Viewport> makeTestViewport()
{
    render::ViewportOptions o;
    o.msaa = false;
    auto v = std::make_unique<render::Viewport>(o);
    v->resize(256, 256);
    v->show();
    if (!QTest::qWaitForWindowExposed(v.get())) {
        return nullptr;
    }
    return v;
}

} // namespace rigscope::test
