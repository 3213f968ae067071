#include "views/import/ImportReportPage.h"

#include "models/import/ImportJournal.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportSession.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;
using models::CommitState;
using models::ImportOutcome;

ImportReportPage::ImportReportPage(models::ImportSession *session)
    : QWizardPage()
    , m_session(session)
    , m_counts(new QLabel(this))
    , m_failures(new QTreeWidget(this))
{
    setTitle(tr("Report"));
    setFinalPage(true);
    m_counts->setWordWrap(true);
    m_counts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_failures->setHeaderLabels({tr("Line"), tr("Customer"), tr("Not imported because")});
    m_failures->setRootIsDecorated(false);
    m_failures->header()->setStretchLastSection(true);
    auto *exportButton = new QPushButton(tr("E&xport report as CSV…"), this);
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_counts);
    layout->addWidget(m_failures, 1);
    layout->addLayout(row);

    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString source = m_session->journal() ? m_session->journal()->path() : QString();
        const QString suggestion = source.isEmpty()
                                       ? u"import-report.csv"_s
                                       : QFileInfo(source).absolutePath() + u"/import-report.csv"_s;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export report"), suggestion,
                                                          tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            exportTo(path);
    });
}

void ImportReportPage::initializePage()
{
    const models::ImportPreviewModel *preview = m_session->preview();
    QList<int> committed(models::ImportOutcomeCount, 0);
    m_failures->clear();
    for (int r = 0; r < preview->rowCount(); ++r) {
        const models::ImportEntry &entry = preview->entry(r);
        if (entry.commit == CommitState::Committed || entry.commit == CommitState::Earlier)
            ++committed[int(entry.committedAs)];
        else
            new QTreeWidgetItem(m_failures, {QString::number(entry.line), entry.request.customerId,
                                             entry.commit == CommitState::Waiting
                                                 ? tr("stopped before it was sent")
                                                 : entry.commitMessage});
    }
    const auto states = preview->commitCounts();
    QStringList lines;
    lines.append(tr("%n customer(s) imported:", nullptr,
                    states.value(CommitState::Committed) + states.value(CommitState::Earlier)));
    for (int o = int(ImportOutcome::New); o < int(ImportOutcome::Error); ++o)
        lines.append(u"    %1: %2"_s.arg(models::ImportChanges::outcomeName(ImportOutcome(o)))
                         .arg(committed.at(o)));
    if (const int earlier = states.value(CommitState::Earlier))
        lines.append(tr("of which %n in an earlier run (from the journal)", nullptr, earlier));
    lines.append(tr("%n customer(s) not imported.", nullptr, m_failures->topLevelItemCount()));
    if (m_session->journal())
        lines.append(tr("Journal: %1").arg(QDir::toNativeSeparators(m_session->journal()->path())));
    m_counts->setText(lines.join(u'\n'));
    m_failures->resizeColumnToContents(0);
    m_failures->resizeColumnToContents(1);
}

bool ImportReportPage::exportTo(const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_session->preview()->reportCsv()) < 0 ||
        !file.commit()) {
        QMessageBox::warning(this, tr("Export report"),
                             tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    return true;
}

} // namespace md::views
