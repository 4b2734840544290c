#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <Eigen/Geometry>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFutureWatcher>
#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include "app/document/check_scheduler.h"
#include "app/document/flex_values.h"
#include "app/document/loaded_file.h"
#include "app/document/playback.h"

#include "core/checks/registry.h"
#include "core/formats/registry.h"
#include "core/pose/animation_binding.h"
#include "core/pose/flex_binding.h"
#include "core/pose/jiggle_pose.h"
#include "core/ops/scene.h"
#include "core/pose/pose_rig.h"
#include "core/pose/qc_flex.h"
#include "render/texture_loader.h"

namespace rigscope::core {
struct QcReport;
struct CompiledModelInfo;
} // namespace rigscope::core

class QTimer;

namespace rigscope::app {

// An animation the document can play: animations[0] of file `file`, bound to the primary
// skeleton by bone name.
struct DocAnimation {
    QString name;
    int file = -1;
    int index = 0; // into the file's animations (QC projects: one per $sequence)
    core::AnimationBinding binding;
    const core::Animation& animation(const std::vector<LoadedFile>& files) const
    {
        return files[std::size_t(file)].model->animations[std::size_t(index)];
    }
};

// What is selected; indices are core indices into the primary model.
struct Selection {
    enum class Kind { None, Joint, Material, Triangle, Animation, Flex, Frame };
    Kind kind = Kind::None;
    int index = -1;
    int corner = -1; // Triangle: 0..2; Frame: frame index
    bool operator==(const Selection&) const = default;
};

// Owns the files of one scene (a reference plus attached animations and VTAs), the current
// animation and frame, and the selection. Loads in the background (QtConcurrent + a generation
// counter); the model is swapped only on success. The checks run afterwards, also in the
// background: `loaded` comes as soon as the files are read, `diagnosticsChanged` when their
// checks finished. A newer load or profile supersedes a running check (its results are dropped).
class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);
    ~Document() override;

    // Starts loading; the previous files stay until the new ones arrive. `keepState` keeps the
    // animation (by name), frame and selection (reload).
    void open(const QStringList& paths, bool keepState = false);
    void reload();
    // UX ↓: opens `candidates` beside the current files, keeping the state, and keeps only the
    // animations and flex files among them that share a bone name with the reference (other
    // models of the folder are read and dropped). Emits `attached` with the number kept.
    // False when nothing is open or every candidate is open already.
    bool attach(const QStringList& candidates);
    void cancelLoad();
    // Re-emits loaded(true), animationChanged, frameChanged and diagnosticsChanged, so views
    // bound to this document anew (a tab switch) show its current state.
    void announce();
    bool isLoading() const;
    // Blocks until the current load and its checks finished (tests, --window-screenshot).
    // True when the document has files (the failed load of another one keeps them).
    bool waitForLoaded(int timeoutMs = 60000);

    const std::vector<LoadedFile>& files() const { return m_files; }
    // Files of the last load that failed (no model): their diagnostics stay visible while the
    // previous scene is kept. Cleared by the next successful load.
    const std::vector<LoadedFile>& failedFiles() const { return m_failed; }
    // files() then failedFiles(), for the Problems dock: null past the end.
    const LoadedFile* problemFile(int index) const;
    int problemFileCount() const { return int(m_files.size() + m_failed.size()); }
    QStringList paths() const;
    int primaryIndex() const { return m_primary; }
    const LoadedFile* primary() const;
    std::shared_ptr<const core::Model> primaryModel() const;
    QString displayName() const;

    const std::vector<DocAnimation>& animations() const { return m_animations; }
    int currentAnimation() const { return m_playback.animation(); } // -1 = rest pose
    int currentFrame() const { return m_playback.frame(); }
    int frameCount() const; // of the current animation (1 for the rest pose)
    void setCurrentAnimation(int index);
    void setCurrentFrame(int frame);
    int findAnimation(const QString& name) const;
    // UX "Interpolate": off, playback shows whole frames (as compiled); on, the pose is slerped
    // between the frames around a fractional playhead (slow motion). Whole-frame moves
    // (setCurrentFrame, scrubbing, stepping) put the playhead back on a frame.
    bool interpolate() const { return m_playback.interpolate(); }
    void setInterpolate(bool on);
    double playhead() const { return m_playback.playhead(); }
    // A fractional frame index, clamped to the animation; the fraction only counts while
    // interpolating. Emits frameChanged when the pose changes.
    void setPlayhead(double index);
    // Model-space joint matrices at the playhead; empty for the rest pose.
    std::vector<Eigen::Affine3f> currentPose();
    // Bounds of the primary model over every frame of the current animation (its joints at
    // each frame, padded by how far the mesh reaches past the bind skeleton): what frame-all
    // covers when the animation carries the model away. Invalid for the rest pose.
    core::Bounds animationBounds();

    // Flex shapes of all attached VTAs, in file then shape order; weights survive reloads by name.
    const QStringList& flexNames() const { return m_flex.names(); }
    float flexWeight(int shape) const;
    void setFlexWeight(int shape, float weight);
    // A stereo control's split values (DMX): points move by right * balance + left * (1 -
    // balance), balance being the point's stereo split in the file (0.5 without one).
    // flexWeight() then gives the left value, flexWeightRight() the right one.
    void setFlexWeightStereo(int shape, float left, float right);
    float flexWeightRight(int shape) const;
    // Reset all: every shape at 0, a compiled model's controllers back at rest.
    void resetFlexWeights();
    // A compiled Source model's flex controllers (issue 29): one value each, in its min..max
    // (at rest: core::controllerRest). Setting one runs the model's flex rules
    // (core::evaluateFlexRules) and gives each shape named after a flex descriptor that
    // descriptor's weight. Kept by controller name across reloads; empty without controllers.
    const std::vector<float>& controllerValues() const { return m_controllers; }
    void setControllerValue(int controller, float value);
    // The controllers, descriptors and rules the Flex dock drives: a compiled model's, else an
    // open QC's face (core/pose/qc_flex.h, issue 32), else null.
    const core::CompiledModelInfo* flexProgram() const;
    // An open QC's face (null without flexcontroller / % rules / eyeballs).
    const core::QcFlexRig* qcFace() const;
    // Where a QC face's eyes look (model space; unset: straight ahead). Moving it re-runs the
    // eyelids (their shapes follow the eyes' pitch) and emits eyeTargetChanged.
    const core::QcEyeTarget& eyeTarget() const { return m_eyeTarget; }
    void setEyeTarget(const core::QcEyeTarget& target);
    // The eyes drawn: a QC face's `eyeball`s, else the primary DMX's DmeEyeballs
    // (core/formats/dmx/dmx_eyes.h; no lids). Empty without eyes.
    const std::vector<core::QcFlexRig::Eye>& eyes() const;
    // Per eye, how its bone moved from the reference pose in the pose currentPose() gave last
    // (core::eyeBoneDeltas; identity at the rest pose): the eyes and their lids ride the
    // animated head.
    const std::vector<Eigen::Affine3f>& eyeDeltas() const { return m_eyeDeltas; }
    // The shape values as core's SceneEvaluator takes them (NaN right: mono).
    core::FlexSetting flexSetting() const { return m_flex.setting(); }
    // The scene's evaluator (null without a model): poses, morphs and skins the primary model
    // for the viewport, as `rigscope-cli pose --vertices` does.
    std::shared_ptr<const core::SceneEvaluator> evaluator() const { return m_scene.evaluator; }
    // The assembled scene (core): reference, animations, flex files, counts.
    const core::Scene& scene() const { return m_scene; }

    const Selection& selection() const { return m_selection; }
    void setSelection(const Selection& s);

    // Checks (CHECKS.md). The requested profile (auto by default) applies to every file; changing
    // it re-runs the checks in the background (checksStarted now, diagnosticsChanged when done).
    core::Profile requestedProfile() const { return m_profile; }
    // QC projects (issue 17) and compiled models (issue 29): the bodygroup choices, skin and
    // LOD shown; changing it reloads, keeping the view. Opening another model resets it.
    const QcView& qcView() const { return m_qcView; }
    // --force-reader=FMT (the CLI's option): every file of the next loads read with that reader.
    void setForceReader(const std::string& reader) { m_forceReader = reader; }
    void setQcView(const QcView& view);
    // The open QC project, or null.
    const core::QcReport* qcProject() const;
    // The open compiled model (.mdl, issue 29), or null. Its bodyparts, skins and LODs are
    // chosen through qcView() as a QC project's are.
    const core::CompiledModelInfo* compiledModel() const;
    // Jiggle bones (issue 32; docs/jiggle.md): the primary model's $jigglebone bones (a QC
    // project) or procedural jiggle bones (a compiled model). While on (the default), the pose
    // of an animation moves them as the engine integrates them, played from the animation's
    // first frame (core::JigglePlayer), so a frame shows what `pose --jiggle` gives.
    const std::vector<core::JiggleJoint>& jiggleJoints() const { return m_jiggle.joints(); }
    bool jiggleEnabled() const { return m_jiggleOn; }
    void setJiggleEnabled(bool on);
    // A bone moved by hand (the viewport's Ctrl+drag, docs/viewer.md): `joint` and everything
    // below it are carried by `offset` (model space) on top of the animation or rest pose. A
    // jiggle bone hands the move to its parent, so the bone itself swings. While a bone is
    // moved the jiggle bones run live, in real time from the moment the move began (60 steps a
    // second on a timer, stopping once every bone settled), as the engine integrates them while
    // the model moves; the frame-exact playback (`pose --jiggle`) resumes after
    // clearBoneDrag(). Opening or reloading clears it. Returns the joint moved (-1: none).
    int setBoneDrag(int joint, const core::Vec3& offset);
    // The joint setBoneDrag(joint, …) moves (a jiggle bone's parent), -1 when none.
    int boneDragTarget(int joint) const;
    void clearBoneDrag();
    int boneDragJoint() const { return m_dragJoint; }
    core::Vec3 boneDragOffset() const { return m_dragOffset; }
    // Advances the live jiggle bones by `dt` seconds toward the current goal (the timer calls it
    // with the time elapsed; tests call it directly) and emits frameChanged. True while a bone
    // is still moving (more than 1e-4 units a step).
    bool stepLiveJiggle(double dt);
    bool liveJiggleRunning() const;
    // Source material roots given by the user (--materials, Settings), searched before those
    // found above the model. The checks and the viewport use them alike (materialSources);
    // changing them re-runs the checks.
    void setMaterialRoots(const QStringList& roots);
    const QStringList& materialRoots() const { return m_materialRoots; }
    // Where the primary model's materials and textures are looked up: its folder, the roots,
    // the open QC's $cdmaterials; no Source lookup under the goldsrc and cod profiles.
    render::MaterialSources materialSources() const;
    // Whether the primary model's Source materials were looked up, and the game folders found
    // beside its sources when not (issue 27): kept until the primary file, the roots or the
    // active profile change (the status bar asks on every frame).
    struct MaterialLookupState {
        bool notLookedUp = false;
        QStringList offered;
    };
    const MaterialLookupState& materialLookupState() const;
    void setProfile(core::Profile profile);
    // The profile the primary file was checked with (auto resolved).
    core::Profile activeProfile() const;
    // Checks of the current files are running or queued: their diagnostics and budgets are
    // empty (after a load) or those of the previous profile (after setProfile).
    bool isChecking() const { return m_checking; }
    // Off: loads run no checks and diagnostics stay empty (headless renders). On by default.
    void setChecksEnabled(bool on) { m_checksEnabled = on; }
    bool checksEnabled() const { return m_checksEnabled; }
    // Called on the worker thread before each check run (tests hold it to keep a check running).
    void setCheckStartHook(std::function<void()> hook) { m_checks.setStartHook(std::move(hook)); }
    // Meters of the document: the primary's bones, materials and vertices; flexed vertices
    // from its VTAs (the largest).
    std::vector<core::BudgetMeter> budget() const;
    // What selecting the element of a diagnostic of file `file` means for the primary model
    // (bones of other files match by name; an SMD vertex is corner 3t+c, an XMODEL one a pool
    // point). None when the element is not shown.
    Selection selectionFor(int file, const core::ElementRef& element) const;
    // Selects the element of files()[file].diagnostics[index] (and its animation and frame for
    // frame elements). False when the diagnostic points at nothing selectable.
    bool selectDiagnostic(int file, int index);
    // Findings of an on-demand run (the Physics view's drop test: phys.ragdoll-unstable) in the
    // primary file's diagnostics: those of the same ids are replaced. Emits diagnosticsChanged.
    void setExtraDiagnostics(std::vector<core::Diagnostic> diagnostics);

    // Weighted-vertex count per joint of the primary model (points with weight > 0).
    const std::vector<int>& weightedVertexCounts() const { return m_scene.weightedVertexCounts; }
    const std::vector<int>& materialTriangleCounts() const
    {
        return m_scene.materialTriangleCounts;
    }

signals:
    void loadStarted();
    void loadProgress(int done, int total);
    void loaded(bool keepState);
    void loadFailed(const QString& message);
    void attached(int added);
    void animationChanged(int index);
    void frameChanged(int frame); // also when the playhead moves between frames
    void interpolateChanged(bool on);
    void selectionChanged(const rigscope::app::Selection& selection);
    void flexChanged();
    void eyeTargetChanged();
    // Checks of the current files started (isChecking()): after a load, before `loaded`, with
    // the files' diagnostics and budgets cleared; after a profile change.
    void checksStarted();
    // Diagnostics and budgets were recomputed (checks of a load or a profile change finished;
    // a load that failed altogether).
    void diagnosticsChanged();

private:
    void onLoadFinished();
    void assemble(std::vector<LoadedFile> files, bool keepState);
    void requestChecks();
    void onChecksFinished(std::vector<FileChecks> results);

    std::vector<LoadedFile> m_files;
    std::vector<LoadedFile> m_failed;
    int m_primary = -1;
    std::vector<DocAnimation> m_animations;
    Playback m_playback;
    QStringList m_attachKeep; // while attaching: the files open before, kept whatever they are
    Selection m_selection;
    core::Scene m_scene;
    FlexValues m_flex;
    core::JigglePlayer m_jiggle;
    bool m_jiggleOn = true;
    std::vector<float> m_controllers; // a compiled model's flex controllers
    std::vector<QString> m_controllerNames;
    core::QcEyeTarget m_eyeTarget;
    std::vector<core::QcFlexRig::Eye> m_dmxEyes; // the primary DMX's DmeEyeballs
    std::vector<Eigen::Affine3f> m_eyeDeltas;
    void updateEyePose(const std::vector<Eigen::Affine3f>& pose);
    void stopLive();
    std::vector<Eigen::Affine3f> animatedPose(); // the playhead's pose, jiggled; {} at rest
    std::vector<Eigen::Affine3f> dragGoal();     // the animation or rest pose, moved by hand
    int m_dragJoint = -1;
    core::Vec3 m_dragOffset = core::Vec3::Zero();
    core::JigglePlayer m_liveJiggle;
    std::vector<Eigen::Affine3f> m_livePose; // empty: no bone moved by hand
    double m_livePlayhead = -1;
    double m_liveQuiet = 0; // seconds the live bones have been still
    QTimer* m_liveTimer = nullptr;
    QElapsedTimer m_liveClock;
    void resetControllers(bool keep);
    void applyControllers(bool notify); // emits flexChanged when a weight moved and `notify`

    QFutureWatcher<std::vector<LoadedFile>> m_watcher;
    quint64 m_generation = 0;
    quint64 m_loadingGeneration = 0;
    bool m_keepState = false;
    QStringList m_loadingPaths;
    core::Profile m_profile = core::Profile::Auto;
    QcView m_qcView;
    std::string m_forceReader;
    QStringList m_materialRoots;
    mutable MaterialLookupState m_lookupState;
    mutable QString m_lookupStateKey;

    CheckScheduler m_checks;
    bool m_checking = false; // the current files' checks are not applied yet
    bool m_checksEnabled = true;
};

} // namespace rigscope::app

Q_DECLARE_METATYPE(rigscope::app::Selection)
