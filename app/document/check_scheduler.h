#pragma once

// Runs a document's checks in the background (QtConcurrent), one run at a time: a newer request
// supersedes a running one, which stops between files and whose results are dropped; the newest
// inputs are checked as soon as it has stopped.

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <QtCore/QFutureWatcher>
#include <QtCore/QObject>
#include <QtCore/QStringList>

#include "app/document/loaded_file.h"

namespace rigscope::app {

class CheckScheduler : public QObject {
    Q_OBJECT
public:
    explicit CheckScheduler(QObject* parent = nullptr);
    ~CheckScheduler() override;

    void request(std::vector<CheckInput> inputs, core::Profile profile, QStringList roots);
    // Drops the pending request and the running one's results.
    void cancel();
    // Called on the worker thread before each run (tests hold it to keep a run going).
    void setStartHook(std::function<void()> hook) { m_hook = std::move(hook); }

signals:
    // The checks of the newest request, one entry per input.
    void finished(std::vector<rigscope::app::FileChecks> results);

private:
    struct Request {
        std::vector<CheckInput> inputs;
        core::Profile profile = core::Profile::Auto;
        QStringList roots;
    };
    struct Results {
        quint64 generation = 0;
        std::vector<FileChecks> files;
    };
    void start();
    void onFinished();

    QFutureWatcher<std::shared_ptr<Results>> m_watcher; // shared: results move out
    std::optional<Request> m_pending;
    quint64 m_generation = 0; // bumped by each request; results of older ones are dropped
    bool m_running = false;
    std::function<void()> m_hook;
};

} // namespace rigscope::app
