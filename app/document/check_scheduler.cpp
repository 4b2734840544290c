#include "app/document/check_scheduler.h"

#include <QtConcurrent/QtConcurrentRun>
#include <QtCore/QPromise>

namespace rigscope::app {

CheckScheduler::CheckScheduler(QObject* parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<Results>>::finished, this,
            &CheckScheduler::onFinished);
}

CheckScheduler::~CheckScheduler()
{
    m_watcher.cancel();
    m_watcher.waitForFinished();
}

void CheckScheduler::request(std::vector<CheckInput> inputs, core::Profile profile,
                             QStringList roots)
{
    ++m_generation;
    m_pending = Request{std::move(inputs), profile, std::move(roots)};
    if (m_running) {
        m_watcher.cancel(); // stops between files; onFinished starts the newest
    } else {
        start();
    }
}

void CheckScheduler::cancel()
{
    ++m_generation;
    m_pending.reset();
    if (m_running) {
        m_watcher.cancel();
    }
}

void CheckScheduler::start()
{
    if (!m_pending) {
        return;
    }
    Request r = std::move(*m_pending);
    m_pending.reset();
    m_running = true;
    m_watcher.setFuture(
        QtConcurrent::run([r = std::move(r), generation = m_generation,
                           hook = m_hook](QPromise<std::shared_ptr<Results>>& promise) {
            if (hook) {
                hook();
            }
            auto out = std::make_shared<Results>();
            out->generation = generation;
            out->files = checkInputs(r.inputs, r.profile, r.roots,
                                     [&promise] { return promise.isCanceled(); });
            if (!promise.isCanceled()) {
                promise.addResult(std::move(out));
            }
        }));
}

void CheckScheduler::onFinished()
{
    m_running = false;
    const QFuture<std::shared_ptr<Results>> future = m_watcher.future();
    if (!future.isCanceled() && future.resultCount() > 0 &&
        future.result()->generation == m_generation) {
        emit finished(std::move(future.result()->files));
        return;
    }
    start(); // superseded: the newest request, if any
}

} // namespace rigscope::app
