#pragma once

// A jiggle bone's parameters as studiomdl stores them (mstudiojigglebone_t of the public Source
// SDK 2013 studio.h): what `$jigglebone` compiles to, with studiomdl's defaults (its
// Cmd_JiggleBone) and its units (angles in radians). The engine's integration of them is
// core/pose/jiggle_sim.h. docs/jiggle.md.

#include <cstdint>
#include <string>
#include <vector>

namespace rigscope::core {

struct JiggleParams {
    enum Flag : std::uint32_t {
        Flexible = 0x01,
        Rigid = 0x02,
        YawConstraint = 0x04,
        PitchConstraint = 0x08,
        AngleConstraint = 0x10,
        LengthConstraint = 0x20,
        BaseSpring = 0x40,
        Boing = 0x80,
    };
    std::uint32_t flags = 0;
    float length = 10.0f; // base to tip along the bone's +Z
    float tipMass = 0.0f; // pulls the tip down (world -Z), units/s^2
    float yawStiffness = 100.0f, yawDamping = 0.0f;
    float pitchStiffness = 100.0f, pitchDamping = 0.0f;
    float alongStiffness = 100.0f, alongDamping = 0.0f;
    float angleLimit = 0.0f; // radians
    float minYaw = 0.0f, maxYaw = 0.0f, yawFriction = 0.0f, yawBounce = 0.0f;
    float minPitch = 0.0f, maxPitch = 0.0f, pitchFriction = 0.0f, pitchBounce = 0.0f;
    float baseMass = 0.0f, baseStiffness = 100.0f, baseDamping = 0.0f;
    float baseMinLeft = -100.0f, baseMaxLeft = 100.0f, baseLeftFriction = 0.0f;
    float baseMinUp = -100.0f, baseMaxUp = 100.0f, baseUpFriction = 0.0f;
    float baseMinForward = -100.0f, baseMaxForward = 100.0f, baseForwardFriction = 0.0f;
    float boingImpactSpeed = 0.0f, boingImpactAngle = 0.0f, boingDampingRate = 0.0f;
    float boingFrequency = 0.0f, boingAmplitude = 0.0f;

    // "flexible", "rigid", "base_spring", "boing": the property groups present, in that order
    // (info --json `jiggleBones[].kinds`).
    std::vector<std::string> kinds() const
    {
        std::vector<std::string> out;
        if (flags & Flexible) {
            out.emplace_back("flexible");
        }
        if (flags & Rigid) {
            out.emplace_back("rigid");
        }
        if (flags & BaseSpring) {
            out.emplace_back("base_spring");
        }
        if (flags & Boing) {
            out.emplace_back("boing");
        }
        return out;
    }
};

} // namespace rigscope::core
