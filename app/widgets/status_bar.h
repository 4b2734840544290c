#pragma once

#include <QtCore/QTimer>
#include <QtWidgets/QStatusBar>

#include <vector>

#include "app/widgets/settings_dialog.h"
#include "core/diag/profile.h"
#include "render/model_scene.h"

class QLabel;
class QProgressBar;
class QToolButton;

namespace rigscope::app {

class BudgetBar;
class Document;

// The window's status bar: the model summary (or a transient message in its place, so nothing
// paints over the widgets), load progress with Cancel, the frame readout, the frame rate, the
// weight-view legend, the profile and the budget meters. It only shows what it is told; the
// window decides when (MainWindow).
class StatusBar : public QStatusBar {
    Q_OBJECT
public:
    explicit StatusBar(QWidget* parent);

    // A message in the summary's place for `timeoutMs`; the summary comes back after it.
    void flash(const QString& text, int timeoutMs);
    void clearFlash();

    void showNoFile();
    void showOpenFailed(const QString& message);
    // Busy indicator while a document loads (range 0..total once total > 1 files are known).
    void setLoading(bool on);
    void setLoadProgress(int done, int total);

    // The summary and frame readout of `doc`'s primary model; with none, the frame readout, the
    // frame rate and the weight legend hide (no stale boxes after a failed load).
    void showDocument(const Document& doc, Units units);
    void setFps(double fps);
    void setFpsWanted(bool on); // Display ▸ Frame Rate
    // Checks running: the profile says so and the meters grey out; checked: their results.
    void showChecking(const Document& doc);
    void showChecked(const Document& doc);
    // The legend of the weight views (K, Shift+K); hidden when both are off or there is no
    // model. `moved`: the largest displacement of the weight-change view in this pose.
    void showWeightLegend(render::HeatMap heatMap, bool compiledWeights, core::Profile profile,
                          float moved, bool hasModel);

    QLabel* summary() const { return m_summary; }
    QLabel* message() const { return m_message; }
    QLabel* weightLegend() const { return m_heatLabel; }
    const std::vector<BudgetBar*>& budgetBars() const { return m_budgetBars; }

    // Offers a game folder found beside the model's sources when its materials were not looked
    // up (issue 27); hidden otherwise.
    QToolButton* materialsOffer() const { return m_offer; }

signals:
    void cancelRequested();
    void materialRootOffered(const QString& folder); // the offer was taken

private:
    QLabel* m_summary;
    QLabel* m_message;
    QTimer m_messageTimer;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    QLabel* m_frameLabel;
    QLabel* m_fpsLabel;
    QLabel* m_heatLabel;
    QLabel* m_profileLabel;
    QToolButton* m_offer;
    std::vector<BudgetBar*> m_budgetBars;
    bool m_fpsWanted = true;
    bool m_hasModel = false;
};

} // namespace rigscope::app
