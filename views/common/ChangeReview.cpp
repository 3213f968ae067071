#include "views/common/ChangeReview.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace md::views {

ChangeReview::ChangeReview(QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, 3, this))
    , m_caption(new QLabel(tr("These changes will be saved:"), this))
    , m_note(new QLabel(this))
    , m_problem(new QLabel(this))
{
    m_table->setHorizontalHeaderLabels({tr("Field"), tr("Before"), tr("After")});
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
    m_note->setWordWrap(true);
    m_note->setObjectName(QStringLiteral("reviewNote"));
    m_note->hide();
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color:#c62828"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_caption);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_note);
    layout->addWidget(m_problem);
}

void ChangeReview::show(const QList<models::FieldChange> &changes)
{
    m_problem->clear();
    setNote({});
    m_table->setRowCount(int(changes.size()));
    for (int r = 0; r < changes.size(); ++r) {
        const models::FieldChange &change = changes.at(r);
        m_table->setItem(r, 0, new QTableWidgetItem(change.field));
        m_table->setItem(r, 1, new QTableWidgetItem(change.before));
        m_table->setItem(r, 2, new QTableWidgetItem(change.after));
    }
    m_table->resizeColumnToContents(0);
    m_table->resizeRowsToContents();
}

void ChangeReview::setTitles(const QString &caption, const QString &before, const QString &after)
{
    m_caption->setText(caption);
    m_table->setHorizontalHeaderLabels({tr("Field"), before, after});
}

void ChangeReview::setNote(const QString &note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

QString ChangeReview::note() const
{
    return m_note->text();
}

QString ChangeReview::problem() const
{
    return m_problem->text();
}

void ChangeReview::showProblem(const QString &message)
{
    m_problem->setText(tr("Not saved: %1").arg(message));
}

} // namespace md::views
