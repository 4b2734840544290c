#pragma once

#include <memory>

#include <QtWidgets/QWidget>

#include "app/document/document.h"
#include "core/ops/compare.h"

class QCheckBox;
class QLabel;
class QTableWidget;

namespace rigscope::app {

// Compare dock (issue 30 item 1): the open QC project's prediction against its compiled model
// (core::compareQcToCompiled, as `rigscope-cli compare`): one row per difference (field,
// predicted, compiled, verdict); selecting a row selects what it names in the Document (a bone,
// a material, a sequence, a bodypart's first triangle). "Show compiled" draws the compiled model
// over the source as a wireframe ghost (ghostChanged). "Ignore file times" is `compare
// --ignore-timestamps`: a git checkout gives every file the time of the checkout, so on a fresh
// clone every source looks newer than the model built from it.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(QWidget* parent = nullptr);
    void setDocument(Document* document);

    // Compares the Document's QC project with `mdlPath`; false (and a message in the dock)
    // when there is no QC project open or a file does not read.
    bool compareWith(const QString& mdlPath);
    void clear();

    // The compiled model studiomdl built from a QC: `$modelname` under a `models` folder of the
    // QC's folder or of one of its four parents, or of a folder beside them (hammer/models);
    // empty when none is there.
    static QString findCompiled(const core::QcReport& qc);
    // A compiled static prop's points in its sources' space (undoes MakeStaticProp's turn).
    static void turnStaticPropBack(core::Model& model);

    QTableWidget* table() const { return m_table; }
    QLabel* summary() const { return m_summary; }
    QCheckBox* ghostBox() const { return m_ghost; }
    QCheckBox* ignoreTimesBox() const { return m_ignoreTimes; }
    const core::CompareReport& report() const { return m_report; }
    QString compiledPath() const { return m_mdlPath; }
    // What row `row` names, as a Document selection (Kind::None when nothing).
    Selection selectionFor(int row) const;

signals:
    // The compiled model to draw over the source (null: none).
    void ghostChanged(std::shared_ptr<const core::Model> model);

private:
    void onRowSelected();
    void emitGhost();

    Document* m_document = nullptr;
    QLabel* m_summary;
    QTableWidget* m_table;
    QCheckBox* m_ghost;
    QCheckBox* m_ignoreTimes;
    core::CompareReport m_report;
    QString m_mdlPath;
    std::shared_ptr<const core::Model> m_compiledModel;
};

} // namespace rigscope::app
