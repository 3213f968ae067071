#include "views/common/EditorPage.h"

#include "models/common/EditableListModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace md::views {

void EditorPage::setUpTable(QTableView *table)
{
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
}

EditorPage::EditorPage(models::EditableListModel *model, const QString &readProblem,
                       QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_table(new QTableView(this))
    , m_undo(new QPushButton(tr("&Undo last change"), this))
    , m_status(new QLabel(this))
    , m_buttons(new QHBoxLayout)
{
    model->setParent(this);
    m_table->setModel(model);
    setUpTable(m_table);
    auto *editButton = new QPushButton(tr("&Edit…"), this);
    editButton->setObjectName(QStringLiteral("editRecord"));
    m_undo->setEnabled(false);
    m_status->setWordWrap(true);
    m_buttons->addWidget(editButton);
    m_buttons->addWidget(m_undo);
    m_buttons->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(m_buttons);
    layout->addWidget(m_table, 1);

    connect(editButton, &QPushButton::clicked, this, [this] { edit(); });
    // Enter and a double-click do what Edit… does, and not when it is off
    // (a key without the scope: views/window/ScopeLock).
    const auto editIfAllowed = [this, editButton] {
        if (editButton->isEnabled())
            edit();
    };
    connect(m_table, &QTableView::doubleClicked, this, editIfAllowed);
    auto *enter = new QShortcut(QKeySequence(Qt::Key_Return), m_table);
    enter->setContext(Qt::WidgetShortcut);
    connect(enter, &QShortcut::activated, this, editIfAllowed);
    connect(m_undo, &QPushButton::clicked, this, &EditorPage::undo);
    // A reload resets the table: the record current before it (the one just
    // saved or undone) is chosen again once the rows are in, else the first.
    connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        const QModelIndex current = m_table->currentIndex();
        m_keptId = current.isValid() ? m_model->idAt(current.row()) : QString();
    });
    connect(model, &models::ListTableModel::loaded, this, [this] {
        m_table->resizeColumnsToContents();
        const int kept = m_model->rowOf(std::exchange(m_keptId, QString()));
        if (m_model->rowCount() > 0)
            select(std::max(kept, 0));
    });
    connect(model, &models::ListTableModel::failed, this,
            [this, readProblem](const api::ApiError &error) {
                m_status->setText(readProblem.arg(error.message));
            });
}

void EditorPage::saved(const QString &message)
{
    m_undo->setEnabled(true);
    m_status->setText(message);
}

void EditorPage::addButton(QPushButton *button)
{
    m_buttons->insertWidget(m_buttons->indexOf(m_status), button);
}

QFuture<api::Result<QString>> EditorPage::undoLast()
{
    return m_model->undoLast();
}

void EditorPage::select(int row)
{
    // The scroll bar counts the rows of a reload before the row is scrolled to.
    m_table->doItemsLayout();
    m_table->setCurrentIndex(m_model->index(row, 0)); // selects the row and scrolls to it
}

void EditorPage::undo()
{
    m_undo->setEnabled(false); // one undo at a time
    if (const QString question = undoQuestion(); !question.isEmpty()) {
        auto *ask = new QMessageBox(QMessageBox::Warning, tr("Undo last change"), question,
                                    QMessageBox::Cancel, this);
        ask->setAttribute(Qt::WA_DeleteOnClose);
        ask->setObjectName(QStringLiteral("undoQuestion"));
        QPushButton *undo = ask->addButton(tr("&Undo"), QMessageBox::DestructiveRole);
        ask->setDefaultButton(QMessageBox::Cancel);
        connect(undo, &QPushButton::clicked, this, &EditorPage::undoNow);
        connect(ask, &QDialog::finished, this, [this, ask, undo] {
            if (ask->clickedButton() != undo)
                m_undo->setEnabled(true); // not undone: still offered
        });
        ask->open();
        return;
    }
    undoNow();
}

void EditorPage::undoNow()
{
    undoLast().then(this, [this](const api::Result<QString> &undone) {
        m_undo->setEnabled(!undone);
        m_status->setText(undone ? tr("Undid the last change to %1.").arg(undone.value())
                                 : tr("The change was not undone: %1").arg(undone.error().message));
        // The record undone is the one to look at (a promotion's is no row).
        if (const int row = undone ? m_model->rowOf(undone.value()) : -1; row >= 0)
            select(row);
        m_model->reload();
    });
}

} // namespace md::views
