// What the admin list pages share: the table (one row selected at a time,
// the same record after a reload), Edit… (Enter or double-click), "Undo
// last change" and a status line.
#pragma once

#include "services/api/Result.h"

#include <QFuture>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QPushButton;
class QTableView;

namespace md::models {
class EditableListModel;
}

namespace md::views {

class EditorPage : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EditorPage)

public:
    QTableView *table() const { return m_table; }
    QPushButton *undoButton() const { return m_undo; }
    QLabel *status() const { return m_status; }

    // A read-only table of whole rows, one selected at a time.
    static void setUpTable(QTableView *table);

protected:
    // Takes `model` over; `readProblem` ("Products could not be read: %1")
    // is shown when reading the rows fails.
    EditorPage(models::EditableListModel *model, const QString &readProblem, QWidget *parent);
    // Opens the form on the current row.
    virtual void edit() = 0;
    // A save went through (the model remembers it): its undo is offered.
    void saved(const QString &message);
    // A button beside Edit… and Undo last change.
    void addButton(QPushButton *button);
    // What Undo last change writes back: the model's last save, unless a
    // page keeps changes of another kind too.
    virtual QFuture<api::Result<QString>> undoLast();
    // When undoing the last change reaches past this page (production), the
    // question asked first; empty when Undo goes ahead at once.
    virtual QString undoQuestion() const { return {}; }

private:
    // Makes `row` current and selected, scrolled into view.
    void select(int row);
    void undo();
    void undoNow();

    models::EditableListModel *m_model;
    QTableView *m_table;
    QPushButton *m_undo;
    QLabel *m_status;
    QHBoxLayout *m_buttons;
    QString m_keptId; // the record current when a reload began
};

} // namespace md::views
