#include "app/document/document.h"

#include <QtConcurrent/QtConcurrentRun>
#include <QtCore/QDeadlineTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QFileInfo>
#include <QtCore/QHash>
#include <QtCore/QPromise>
#include <QtCore/QTimer>

#include "app/document/document_materials.h"
#include "app/qt_convert.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/diag/diagnostic_ids.h"
#include "core/ops/jiggle_bones.h"
#include "core/ops/qc_ops.h"
#include "core/pose/flex_controls.h"

#include <algorithm>
#include <limits>

namespace rigscope::app {

Document::Document(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<rigscope::app::Selection>();
    connect(&m_watcher, &QFutureWatcher<std::vector<LoadedFile>>::finished, this,
            &Document::onLoadFinished);
    connect(&m_watcher, &QFutureWatcher<std::vector<LoadedFile>>::progressValueChanged, this,
            [this](int v) { emit loadProgress(v, m_watcher.progressMaximum()); });
    connect(&m_checks, &CheckScheduler::finished, this, &Document::onChecksFinished);
}

Document::~Document()
{
    m_watcher.cancel();
    m_watcher.waitForFinished();
}

void Document::announce()
{
    emit loaded(true);
    emit animationChanged(currentAnimation());
    emit frameChanged(currentFrame());
    emit selectionChanged(m_selection);
    emit diagnosticsChanged();
}

void Document::open(const QStringList& paths, bool keepState)
{
    if (paths.isEmpty()) {
        return;
    }
    m_watcher.cancel();
    m_attachKeep.clear();
    // Another model: its bodygroups, skins and LODs start at the first (the choices are
    // indices into the model shown).
    if (const LoadedFile* p = primary();
        p && !std::any_of(paths.begin(), paths.end(), [p](const QString& path) {
            return QFileInfo(path).absoluteFilePath() == p->path;
        })) {
        m_qcView = {};
    }
    m_keepState = keepState;
    m_loadingPaths = paths;
    m_loadingGeneration = ++m_generation;
    emit loadStarted();
    const core::Profile profile = m_profile;
    const QcView qcView = m_qcView;
    const std::string forceReader = m_forceReader;
    const QStringList roots = m_materialRoots;
    m_watcher.setFuture(QtConcurrent::run(
        [paths, profile, qcView, forceReader, roots](QPromise<std::vector<LoadedFile>>& promise) {
            promise.setProgressRange(0, int(paths.size()));
            std::vector<LoadedFile> out;
            for (int i = 0; i < paths.size(); ++i) {
                if (promise.isCanceled()) {
                    return;
                }
                out.push_back(loadFile(paths[i], qcView, forceReader));
                promise.setProgressValue(i + 1);
            }
            if (primaryFileIndex(out) < 0) {
                // Nothing to show: the graded reader diagnostics are all there is (cheap).
                checkFiles(out, profile, roots);
            }
            promise.addResult(std::move(out));
        }));
}

bool Document::attach(const QStringList& candidates)
{
    if (m_primary < 0) {
        return false;
    }
    const QStringList current = paths();
    QStringList all = current;
    for (const QString& c : candidates) {
        const QString path = QFileInfo(c).absoluteFilePath();
        if (!all.contains(path)) {
            all << path;
        }
    }
    if (all.size() == current.size()) {
        return false;
    }
    open(all, true);
    m_attachKeep = current;
    return true;
}

void Document::setQcView(const QcView& view)
{
    if (view == m_qcView) {
        return;
    }
    m_qcView = view;
    reload();
}

void Document::setMaterialRoots(const QStringList& roots)
{
    if (roots == m_materialRoots) {
        return;
    }
    m_materialRoots = roots;
    if (m_primary >= 0 && m_checksEnabled) {
        requestChecks();
    }
}

render::MaterialSources Document::materialSources() const
{
    return documentMaterialSources(primary(), m_materialRoots, activeProfile());
}

const Document::MaterialLookupState& Document::materialLookupState() const
{
    const LoadedFile* p = primary();
    const QString key = p ? QStringLiteral("%1|%2|%3")
                                .arg(p->path, m_materialRoots.join(QLatin1Char('|')))
                                .arg(int(activeProfile()))
                          : QString();
    if (key != m_lookupStateKey) {
        m_lookupStateKey = key;
        m_lookupState = {};
        const auto model = primaryModel();
        if (p && model && !model->mesh.materials.empty()) {
            const render::MaterialSources s = materialSources();
            m_lookupState.notLookedUp = s.notLookedUp();
            m_lookupState.offered = s.offeredRoots;
        }
    }
    return m_lookupState;
}

const core::QcReport* Document::qcProject() const
{
    const LoadedFile* p = primary();
    return p && p->qc ? p->qc.get() : nullptr;
}

const core::CompiledModelInfo* Document::compiledModel() const
{
    const LoadedFile* p = primary();
    return p && p->compiled ? p->compiled.get() : nullptr;
}

const core::QcFlexRig* Document::qcFace() const
{
    const core::QcReport* qc = qcProject();
    return qc && (qc->flex.active() || !qc->flex.eyes.empty()) ? &qc->flex : nullptr;
}

const core::CompiledModelInfo* Document::flexProgram() const
{
    if (const core::CompiledModelInfo* info = compiledModel()) {
        return info;
    }
    const core::QcFlexRig* face = qcFace();
    return face && face->active() ? &face->program : nullptr;
}

void Document::setEyeTarget(const core::QcEyeTarget& target)
{
    if (target.set == m_eyeTarget.set && target.point == m_eyeTarget.point) {
        return;
    }
    m_eyeTarget = target;
    applyControllers(true);
    emit eyeTargetChanged();
}

void Document::reload()
{
    if (!m_files.empty()) {
        open(paths(), true);
    }
}

void Document::cancelLoad()
{
    if (isLoading()) {
        m_watcher.cancel();
        ++m_generation;
        emit loadFailed(tr("Loading cancelled"));
    }
}

bool Document::isLoading() const
{
    // Pending until onLoadFinished ran, even if the worker already finished.
    return m_loadingGeneration != 0 && m_loadingGeneration == m_generation;
}

bool Document::waitForLoaded(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while ((isLoading() || isChecking()) && !deadline.hasExpired()) {
        QEventLoop loop;
        QTimer timer;
        timer.setSingleShot(true);
        connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
        connect(this, &Document::loaded, &loop, &QEventLoop::quit);
        connect(this, &Document::loadFailed, &loop, &QEventLoop::quit);
        connect(this, &Document::diagnosticsChanged, &loop, &QEventLoop::quit);
        timer.start(int(std::max<qint64>(1, deadline.remainingTime())));
        loop.exec();
    }
    return !m_files.empty() && !isLoading();
}

void Document::onLoadFinished()
{
    const quint64 generation = m_loadingGeneration;
    if (generation != m_generation || m_watcher.isCanceled() ||
        m_watcher.future().resultCount() == 0) {
        return;
    }
    m_loadingGeneration = 0;
    std::vector<LoadedFile> files = m_watcher.result();
    bool any = false;
    QStringList errors;
    for (const auto& f : files) {
        any = any || f.model;
        if (!f.model) {
            errors << QStringLiteral("%1: %2").arg(QFileInfo(f.path).fileName(), f.error);
        }
    }
    if (!any) {
        // Keep the previous scene; show why this load failed in Problems.
        m_failed = std::move(files);
        emit diagnosticsChanged();
        emit loadFailed(errors.join(QLatin1Char('\n')));
        return;
    }
    m_failed.clear();
    int attachedCount = -1;
    if (!m_attachKeep.isEmpty()) {
        // Keep what was open, and the animations / flex files that fit its reference.
        std::vector<LoadedFile> kept;
        std::vector<LoadedFile> candidates;
        for (auto& f : files) {
            (m_attachKeep.contains(f.path) ? kept : candidates).push_back(std::move(f));
        }
        // core::pairReferences: the folder's files were found, not named (docs/cli.md "Which
        // reference").
        const int primary = primaryFileIndex(kept);
        std::vector<core::SceneSource> sources;
        for (const auto& f : kept) {
            sources.push_back({toStd(f.path), f.model, f.qc});
        }
        for (const auto& f : candidates) {
            sources.push_back({toStd(f.path), f.model, f.qc, false});
        }
        const std::vector<int> pairs = core::pairReferences(sources);
        const std::size_t keptCount = kept.size();
        attachedCount = 0;
        for (std::size_t c = 0; c < candidates.size(); ++c) {
            if (primary >= 0 && pairs[keptCount + c] == primary) {
                kept.push_back(std::move(candidates[c]));
                ++attachedCount;
            }
        }
        files = std::move(kept);
        m_attachKeep.clear();
        errors.clear(); // the folder's other files are not the user's concern here
        for (const auto& f : files) {
            if (!f.model) {
                errors << QStringLiteral("%1: %2").arg(QFileInfo(f.path).fileName(), f.error);
            }
        }
    }
    assemble(std::move(files), m_keepState);
    if (attachedCount >= 0) {
        emit attached(attachedCount);
    }
    if (!errors.isEmpty()) {
        emit loadFailed(errors.join(QLatin1Char('\n')));
    }
}

const LoadedFile* Document::problemFile(int index) const
{
    if (index < 0) {
        return nullptr;
    }
    if (std::size_t(index) < m_files.size()) {
        return &m_files[std::size_t(index)];
    }
    const std::size_t k = std::size_t(index) - m_files.size();
    return k < m_failed.size() ? &m_failed[k] : nullptr;
}

void Document::assemble(std::vector<LoadedFile> files, bool keepState)
{
    const QString oldAnim =
        currentAnimation() >= 0 ? m_animations[std::size_t(currentAnimation())].name : QString();
    const int oldFrame = currentFrame();
    const Selection oldSel = m_selection;
    QString oldJointName;
    if (oldSel.kind == Selection::Kind::Joint && primaryModel() &&
        std::size_t(oldSel.index) < primaryModel()->skeleton.size()) {
        oldJointName = toQString(primaryModel()->skeleton.names[std::size_t(oldSel.index)]);
    }

    m_files = std::move(files);
    m_primary = primaryFileIndex(m_files);
    const core::Model& ref = *m_files[std::size_t(m_primary)].model;
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        LoadedFile& f = m_files[i];
        f.diagnostics.clear(); // until the checks of these files come back
        f.budget.clear();
        f.profile = expectedProfile(m_files, i, m_profile);
        f.guessed = m_profile == core::Profile::Auto;
    }

    // The scene (core): the same reference, animations, shapes and evaluator as the CLI's.
    std::vector<core::SceneSource> sceneFiles;
    sceneFiles.reserve(m_files.size());
    for (const LoadedFile& f : m_files) {
        sceneFiles.push_back({toStd(f.path), f.model, f.qc});
    }
    m_scene = core::assembleScene(std::move(sceneFiles),
                                  expectedProfile(m_files, std::size_t(m_primary), m_profile));
    m_animations.clear();
    for (const core::SceneAnimation& a : m_scene.animations) {
        m_animations.push_back({toQString(a.name), a.file, a.index, a.binding});
    }

    QStringList shapes;
    for (const std::string& n : m_scene.evaluator->shapeNames()) {
        shapes << toQString(n);
    }
    m_flex.reset(shapes, keepState);
    resetControllers(keepState);
    {
        const LoadedFile& pf = m_files[std::size_t(m_primary)];
        m_jiggle =
            core::JigglePlayer(core::jiggleJointsOf(ref.skeleton, pf.qc.get(), pf.compiled.get()),
                               ref.skeleton.parents);
        // A DMX's DmeEyeballs, drawn as a QC's eyeballs are (issue 32).
        m_dmxEyes.clear();
        for (const core::DmxEyeball& d : pf.dmxEyes) {
            core::QcFlexRig::Eye e;
            e.name = d.name;
            e.bone = d.bone;
            e.joint = d.joint;
            e.position = d.position;
            e.radius = d.diameter * 0.5f;
            e.zOffset = std::tan(d.angle * 3.14159265358979f / 180.0f);
            e.irisScale = d.pupilScale != 0.0f ? 1.0f / d.pupilScale : 1.0f;
            m_dmxEyes.push_back(std::move(e));
        }
        m_eyeDeltas.assign(eyes().size(), Eigen::Affine3f::Identity());
        stopLive();
    }
    if (!keepState) {
        applyControllers(false); // what the rules give at rest (usually nothing)
    }
    const core::Mesh& mesh = ref.mesh;

    m_playback.restore(-1, 0);
    m_selection = {};
    if (keepState) {
        const int a = findAnimation(oldAnim);
        if (a >= 0) {
            m_playback.restore(a, 0); // frameCount() is the new animation's
            m_playback.restore(a, std::clamp(oldFrame, 0, frameCount() - 1));
        }
        if (!oldJointName.isEmpty()) {
            const core::JointIndex j = ref.skeleton.findByName(toStd(oldJointName));
            if (j >= 0) {
                m_selection = {Selection::Kind::Joint, j, -1};
            }
        } else if (oldSel.kind == Selection::Kind::Material &&
                   std::size_t(oldSel.index) < mesh.materials.size()) {
            m_selection = oldSel;
        } else if (oldSel.kind == Selection::Kind::Triangle &&
                   std::size_t(oldSel.index) < mesh.triangleCount()) {
            m_selection = oldSel;
        }
    }
    // The old files' problems go now (checksStarted), the new ones come with diagnosticsChanged
    // once the checks ran in the background; the model is shown first.
    requestChecks();
    emit loaded(keepState);
    emit animationChanged(currentAnimation());
    emit frameChanged(currentFrame());
    emit selectionChanged(m_selection);
}

QStringList Document::paths() const
{
    QStringList out;
    for (const auto& f : m_files) {
        out << f.path;
    }
    return out;
}

const LoadedFile* Document::primary() const
{
    return m_primary >= 0 ? &m_files[std::size_t(m_primary)] : nullptr;
}

std::shared_ptr<const core::Model> Document::primaryModel() const
{
    return m_primary >= 0 ? m_files[std::size_t(m_primary)].model : nullptr;
}

QString Document::displayName() const
{
    const LoadedFile* p = primary();
    return p ? QFileInfo(p->path).fileName() : QString();
}

int Document::frameCount() const
{
    if (currentAnimation() < 0) {
        return 1;
    }
    return std::max(
        1, int(m_animations[std::size_t(currentAnimation())].animation(m_files).frameCount()));
}

void Document::setCurrentAnimation(int index)
{
    if (index < -1 || index >= int(m_animations.size())) {
        index = -1;
    }
    if (m_playback.setAnimation(index)) {
        m_jiggle.reset();
        m_livePlayhead = -1; // a bone moved by hand: the live bones follow the new goal
        emit animationChanged(index);
        emit frameChanged(0);
    }
}

void Document::setCurrentFrame(int frame)
{
    if (m_playback.setFrame(frame, frameCount())) {
        emit frameChanged(currentFrame());
    }
}

void Document::setPlayhead(double index)
{
    if (m_playback.setPlayhead(index, frameCount())) {
        emit frameChanged(currentFrame());
    }
}

void Document::setInterpolate(bool on)
{
    bool poseChanged = false;
    if (!m_playback.setInterpolate(on, poseChanged)) {
        return;
    }
    emit interpolateChanged(on);
    if (poseChanged) {
        emit frameChanged(currentFrame());
    }
}

int Document::findAnimation(const QString& name) const
{
    if (name.isEmpty()) {
        return -1;
    }
    for (std::size_t i = 0; i < m_animations.size(); ++i) {
        if (m_animations[i].name.compare(name, Qt::CaseInsensitive) == 0 ||
            QFileInfo(m_files[std::size_t(m_animations[i].file)].path)
                    .fileName()
                    .compare(name, Qt::CaseInsensitive) == 0) {
            return int(i);
        }
    }
    return -1;
}

std::vector<Eigen::Affine3f> Document::animatedPose()
{
    if (currentAnimation() < 0 || m_primary < 0) {
        return {};
    }
    const DocAnimation& d = m_animations[std::size_t(currentAnimation())];
    const core::Animation& anim = d.animation(m_files);
    const core::PoseRig& rig = m_scene.evaluator->rig();
    if (m_jiggleOn && !m_jiggle.empty()) {
        return m_jiggle.poseAt(m_playback.playhead(), double(anim.fps), [&](double index) {
            return m_playback.poseAt(rig, anim, d.binding, index);
        });
    }
    return m_playback.pose(rig, anim, d.binding);
}

std::vector<Eigen::Affine3f> Document::currentPose()
{
    std::vector<Eigen::Affine3f> pose;
    if (!m_livePose.empty()) {
        // A bone moved by hand: the live pose; a playhead moved since the last step wakes the
        // live bones (the goal moved).
        if (m_playback.playhead() != m_livePlayhead && m_liveTimer && !m_liveTimer->isActive()) {
            m_liveQuiet = 0;
            m_liveClock.restart();
            m_liveTimer->start();
        }
        pose = m_livePose;
    } else {
        pose = animatedPose();
    }
    updateEyePose(pose);
    return pose;
}

const std::vector<core::QcFlexRig::Eye>& Document::eyes() const
{
    if (const core::QcFlexRig* face = qcFace()) {
        return face->eyes;
    }
    return m_dmxEyes;
}

void Document::updateEyePose(const std::vector<Eigen::Affine3f>& pose)
{
    const std::vector<core::QcFlexRig::Eye>& all = eyes();
    if (all.empty() || !m_scene.evaluator) {
        m_eyeDeltas.clear();
        return;
    }
    std::vector<Eigen::Affine3f> deltas =
        core::eyeBoneDeltas(all, pose, m_scene.evaluator->rig().inverseBind);
    bool same = deltas.size() == m_eyeDeltas.size();
    for (std::size_t i = 0; same && i < deltas.size(); ++i) {
        same = deltas[i].isApprox(m_eyeDeltas[i], 1e-6f);
    }
    if (same) {
        return;
    }
    m_eyeDeltas = std::move(deltas);
    // The lids follow the eyes' pitch relative to the head: looking at a fixed target from a
    // moving head moves them.
    if (m_eyeTarget.set && qcFace()) {
        applyControllers(true);
    }
}

std::vector<Eigen::Affine3f> Document::dragGoal()
{
    std::vector<Eigen::Affine3f> goal;
    if (currentAnimation() >= 0 && m_primary >= 0) {
        const DocAnimation& d = m_animations[std::size_t(currentAnimation())];
        goal = m_playback.pose(m_scene.evaluator->rig(), d.animation(m_files), d.binding);
    }
    if (goal.empty() && m_scene.evaluator) {
        goal = m_scene.evaluator->rig().bindModel;
    }
    const auto model = primaryModel();
    const std::vector<core::JointIndex> none;
    const std::vector<core::JointIndex>& parents = model ? model->skeleton.parents : none;
    if (m_dragJoint < 0 || std::size_t(m_dragJoint) >= goal.size()) {
        return goal;
    }
    // The joint and its descendants (parents come before children).
    std::vector<std::uint8_t> under(goal.size(), 0);
    under[std::size_t(m_dragJoint)] = 1;
    for (std::size_t c = std::size_t(m_dragJoint); c < goal.size(); ++c) {
        const core::JointIndex p = c < parents.size() ? parents[c] : core::kNoJoint;
        if (c != std::size_t(m_dragJoint) && p >= 0 && under[std::size_t(p)]) {
            under[c] = 1;
        }
        if (under[c]) {
            goal[c].pretranslate(m_dragOffset);
        }
    }
    return goal;
}

int Document::boneDragTarget(int joint) const
{
    auto model = primaryModel();
    if (!model || !m_scene.evaluator || joint < 0 || std::size_t(joint) >= model->skeleton.size()) {
        return -1;
    }
    // Moving a jiggle bone moves its parent: the bone itself is what swings.
    for (const core::JiggleJoint& j : m_jiggle.joints()) {
        const core::JointIndex p = model->skeleton.parents[std::size_t(joint)];
        if (j.joint == joint && p >= 0) {
            return p;
        }
    }
    return joint;
}

int Document::setBoneDrag(int joint, const core::Vec3& offset)
{
    joint = boneDragTarget(joint);
    auto model = primaryModel();
    if (joint < 0 || !model) {
        return -1;
    }
    if (m_livePose.empty() || joint != m_dragJoint) {
        // Live from here: the bones start on the goal of the pose shown.
        m_liveJiggle = core::JigglePlayer(m_jiggle.joints(), model->skeleton.parents);
        m_dragJoint = joint;
        m_dragOffset = offset;
        m_livePose = dragGoal();
        if (m_jiggleOn) {
            m_liveJiggle.step(m_livePose, 1.0); // a first step starts at rest
        }
        m_livePlayhead = m_playback.playhead();
        if (!m_liveTimer) {
            m_liveTimer = new QTimer(this);
            m_liveTimer->setInterval(16);
            connect(m_liveTimer, &QTimer::timeout, this, [this] {
                const double dt = std::clamp(double(m_liveClock.restart()) / 1000.0, 0.0, 0.1);
                stepLiveJiggle(dt);
            });
        }
    }
    m_dragOffset = offset;
    m_liveQuiet = 0;
    if (!m_liveTimer->isActive()) {
        m_liveClock.restart();
        m_liveTimer->start();
    }
    emit frameChanged(currentFrame());
    return joint;
}

bool Document::stepLiveJiggle(double dt)
{
    if (m_livePose.empty()) {
        return false;
    }
    std::vector<Eigen::Affine3f> world = dragGoal();
    if (m_jiggleOn && dt > 0) {
        m_liveJiggle.step(world, dt);
    }
    float moved = 0;
    for (std::size_t j = 0; j < world.size() && j < m_livePose.size(); ++j) {
        moved = std::max(moved, (world[j].matrix() - m_livePose[j].matrix()).cwiseAbs().maxCoeff());
    }
    m_livePose = std::move(world);
    m_livePlayhead = m_playback.playhead();
    const bool moving = moved > 1e-4f;
    m_liveQuiet = moving ? 0.0 : m_liveQuiet + dt;
    if (m_liveQuiet > 0.5 && m_liveTimer) {
        m_liveTimer->stop(); // settled; a new drag or playhead wakes it
    }
    emit frameChanged(currentFrame());
    return moving;
}

bool Document::liveJiggleRunning() const
{
    return m_liveTimer && m_liveTimer->isActive();
}

void Document::clearBoneDrag()
{
    if (m_livePose.empty()) {
        return;
    }
    stopLive();
    emit frameChanged(currentFrame());
}

void Document::stopLive()
{
    m_livePose.clear();
    m_dragJoint = -1;
    m_dragOffset = core::Vec3::Zero();
    m_jiggle.reset();
    if (m_liveTimer) {
        m_liveTimer->stop();
    }
}

void Document::setJiggleEnabled(bool on)
{
    if (m_jiggleOn == on) {
        return;
    }
    m_jiggleOn = on;
    m_jiggle.reset();
    if (!m_jiggle.empty()) {
        emit frameChanged(currentFrame());
    }
}

core::Bounds Document::animationBounds()
{
    auto model = primaryModel();
    if (currentAnimation() < 0 || !model) {
        return {};
    }
    const DocAnimation& d = m_animations[std::size_t(currentAnimation())];
    return Playback::bounds(m_scene.evaluator->rig(), d.animation(m_files), d.binding, frameCount(),
                            core::meshBounds(*model));
}

float Document::flexWeight(int shape) const
{
    return m_flex.left(shape);
}

void Document::setFlexWeight(int shape, float weight)
{
    if (m_flex.setMono(shape, weight)) {
        emit flexChanged();
    }
}

void Document::setFlexWeightStereo(int shape, float left, float right)
{
    if (m_flex.setStereo(shape, left, right)) {
        emit flexChanged();
    }
}

float Document::flexWeightRight(int shape) const
{
    return m_flex.right(shape);
}

void Document::resetFlexWeights()
{
    m_flex.zero();
    const bool rules = !m_controllers.empty();
    resetControllers(false);
    if (rules) {
        applyControllers(false); // the shapes as the rules give them at rest
    }
    emit flexChanged();
}

void Document::resetControllers(bool keep)
{
    // The previous values by name (a reload of the same model keeps them).
    QHash<QString, float> old;
    if (keep) {
        for (std::size_t c = 0; c < m_controllers.size() && c < m_controllerNames.size(); ++c) {
            old.insert(m_controllerNames[c], m_controllers[c]);
        }
    }
    m_controllers.clear();
    m_controllerNames.clear();
    const core::CompiledModelInfo* info = flexProgram();
    if (!info) {
        return;
    }
    for (const core::CompiledFlexController& c : info->flexControllers) {
        const QString name = toQString(c.name);
        m_controllerNames.push_back(name);
        m_controllers.push_back(old.value(name, core::controllerRest(c.min, c.max)));
    }
}

void Document::setControllerValue(int controller, float value)
{
    if (controller < 0 || std::size_t(controller) >= m_controllers.size() ||
        m_controllers[std::size_t(controller)] == value) {
        return;
    }
    m_controllers[std::size_t(controller)] = value;
    applyControllers(true);
}

void Document::applyControllers(bool notify)
{
    const core::CompiledModelInfo* info = compiledModel();
    if (!info) {
        // A QC face: controllers → % rules → descriptors → eyelids → shapes (issue 32).
        const core::QcFlexRig* face = qcFace();
        if (!face) {
            return;
        }
        std::size_t count = 0;
        for (const core::QcFlexRig::Key& k : face->keys) {
            if (k.shape != std::numeric_limits<std::size_t>::max()) {
                count = std::max(count, k.shape + 1);
            }
        }
        const core::QcFlexState st =
            core::evaluateQcFlex(*face, m_controllers, count, m_eyeTarget, m_eyeDeltas);
        const QStringList& names = m_flex.names();
        bool changed = false;
        std::vector<bool> done(count, false);
        for (const core::QcFlexRig::Key& k : face->keys) {
            if (k.shape >= count || done[k.shape]) {
                continue;
            }
            done[k.shape] = true;
            const int shape = int(names.indexOf(toQString(k.shapeName)));
            if (shape < 0) {
                continue;
            }
            const core::SideWeights w = st.shapes[k.shape];
            changed = (w.left == w.right ? m_flex.setMono(shape, w.left)
                                         : m_flex.setStereo(shape, w.left, w.right)) ||
                      changed;
        }
        if (changed && notify) {
            emit flexChanged();
        }
        return;
    }
    const std::vector<float> weights = core::evaluateFlexRules(*info, m_controllers);
    const QStringList& names = m_flex.names();
    bool changed = false;
    for (std::size_t d = 0; d < weights.size() && d < info->flexDescs.size(); ++d) {
        const int shape = int(names.indexOf(toQString(info->flexDescs[d])));
        changed = (shape >= 0 && m_flex.setMono(shape, weights[d])) || changed;
    }
    if (changed && notify) {
        emit flexChanged();
    }
}

void Document::setSelection(const Selection& s)
{
    if (s == m_selection) {
        return;
    }
    m_selection = s;
    emit selectionChanged(s);
}

void Document::setProfile(core::Profile profile)
{
    if (profile == m_profile) {
        return;
    }
    m_profile = profile;
    if (!m_files.empty()) {
        requestChecks();
    }
}

void Document::requestChecks()
{
    if (!m_checksEnabled || m_files.empty()) {
        m_checking = false;
        m_checks.cancel();
        return;
    }
    m_checking = true;
    std::vector<CheckInput> inputs;
    inputs.reserve(m_files.size());
    for (const LoadedFile& f : m_files) {
        inputs.push_back({f.path, f.model, f.readerDiagnostics, f.qc, f.compiled});
    }
    m_checks.request(std::move(inputs), m_profile, m_materialRoots);
    emit checksStarted();
}

void Document::onChecksFinished(std::vector<FileChecks> results)
{
    if (results.size() != m_files.size()) {
        return;
    }
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        LoadedFile& f = m_files[i];
        FileChecks& c = results[i];
        f.diagnostics = std::move(c.diagnostics);
        f.budget = std::move(c.budget);
        if (!f.model && f.readerDiagnostics.empty()) {
            continue; // not checked: I/O failure
        }
        f.profile = c.profile;
        f.guessed = c.guessed;
    }
    m_checking = false;
    emit diagnosticsChanged();
}

core::Profile Document::activeProfile() const
{
    const LoadedFile* p = primary();
    if (p) {
        return p->profile;
    }
    return m_profile == core::Profile::Auto ? core::Profile::Source : m_profile;
}

std::vector<core::BudgetMeter> Document::budget() const
{
    const LoadedFile* p = primary();
    if (!p) {
        return {};
    }
    std::vector<core::BudgetMeter> out = p->budget;
    for (const LoadedFile& f : m_files) {
        if (&f == p || !f.model || f.model->kind != core::ModelKind::Flex) {
            continue;
        }
        for (const core::BudgetMeter& b : f.budget) {
            for (core::BudgetMeter& o : out) {
                if (o.name == b.name && b.name == "flexed vertices") {
                    o.used = std::max(o.used, b.used);
                    o.limit = b.limit;
                }
            }
        }
    }
    return out;
}

Selection Document::selectionFor(int file, const core::ElementRef& e) const
{
    using SK = core::SceneElement::Kind;
    const core::SceneElement el = m_scene.elementFor(file, e);
    switch (el.kind) {
    case SK::Joint:
        return {Selection::Kind::Joint, el.index, -1};
    case SK::Material:
        return {Selection::Kind::Material, el.index, -1};
    case SK::Triangle:
        return {Selection::Kind::Triangle, el.index, el.corner};
    case SK::Flex:
        return {Selection::Kind::Flex, el.index, -1};
    case SK::Frame:
        return {Selection::Kind::Frame, el.index, el.corner};
    case SK::None:
        break;
    }
    return {};
}

bool Document::selectDiagnostic(int file, int index)
{
    if (file < 0 || std::size_t(file) >= m_files.size() || index < 0 ||
        std::size_t(index) >= m_files[std::size_t(file)].diagnostics.size()) {
        return false;
    }
    const core::Diagnostic& d = m_files[std::size_t(file)].diagnostics[std::size_t(index)];
    const Selection s = selectionFor(file, d.element);
    if (s.kind == Selection::Kind::None) {
        return false;
    }
    if (s.kind == Selection::Kind::Frame) {
        setCurrentAnimation(s.index);
        setCurrentFrame(s.corner);
    }
    setSelection(s);
    return true;
}

void Document::setExtraDiagnostics(std::vector<core::Diagnostic> diagnostics)
{
    if (m_primary < 0 || static_cast<std::size_t>(m_primary) >= m_files.size()) {
        return;
    }
    std::vector<core::Diagnostic>& list = m_files[static_cast<std::size_t>(m_primary)].diagnostics;
    std::erase_if(
        list, [](const core::Diagnostic& d) { return d.id == core::ids::kPhysRagdollUnstable; });
    for (core::Diagnostic& d : diagnostics) {
        list.push_back(std::move(d));
    }
    emit diagnosticsChanged();
}

} // namespace rigscope::app
