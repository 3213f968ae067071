#include "views/common/RowTableView.h"

#include <QHeaderView>
#include <QKeyEvent>

namespace md::views {

RowTableView::RowTableView(QWidget *parent)
    : QTableView(parent)
{
    setSelectionBehavior(QAbstractItemView::SelectRows);
}

void RowTableView::setSelectionModel(QItemSelectionModel *selectionModel)
{
    QTableView::setSelectionModel(selectionModel);
    connect(selectionModel, &QItemSelectionModel::selectionChanged, this,
            &RowTableView::recordSelectionChanged);
    // A reset empties the selection without selectionChanged.
    connect(selectionModel, &QItemSelectionModel::modelChanged, this,
            &RowTableView::recordSelectionChanged);
    if (QAbstractItemModel *rows = model())
        connect(rows, &QAbstractItemModel::modelReset, this, &RowTableView::recordSelectionChanged,
                Qt::UniqueConnection);
}

int RowTableView::selectedRecordRow() const
{
    const QModelIndexList rows =
        selectionModel() ? selectionModel()->selectedRows() : QModelIndexList();
    return rows.size() == 1 ? rows.first().row() : -1;
}

int RowTableView::selectedRowCount() const
{
    return selectionModel() ? int(selectionModel()->selectedRows().size()) : 0;
}

void RowTableView::keyPressEvent(QKeyEvent *event)
{
    const bool range = (event->key() == Qt::Key_Home || event->key() == Qt::Key_End) &&
                       event->modifiers() == (Qt::ControlModifier | Qt::ShiftModifier);
    const int rows = model() ? model()->rowCount(rootIndex()) : 0;
    if (!range || !selectionModel() || rows == 0) {
        QTableView::keyPressEvent(event);
        return;
    }
    // One range, however many rows: a windowed model reads none of them.
    const int from = currentIndex().isValid() ? currentIndex().row() : 0;
    const int to = event->key() == Qt::Key_Home ? 0 : rows - 1;
    const int column = currentIndex().isValid() ? currentIndex().column() : 0;
    const QModelIndex target = model()->index(to, column, rootIndex());
    selectionModel()->setCurrentIndex(target, QItemSelectionModel::NoUpdate);
    selectionModel()->select(
        QItemSelection(
            model()->index(std::min(from, to), 0, rootIndex()),
            model()->index(std::max(from, to), model()->columnCount(rootIndex()) - 1, rootIndex())),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    scrollTo(target);
    event->accept();
}

QModelIndex RowTableView::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers)
{
    const bool jump =
        modifiers & Qt::ControlModifier && (cursorAction == MoveHome || cursorAction == MoveEnd);
    if (!jump || !model() || model()->rowCount(rootIndex()) == 0)
        return QTableView::moveCursor(cursorAction, modifiers);
    // The first or last row, in the column the focus is in.
    const int row = cursorAction == MoveHome ? 0 : model()->rowCount(rootIndex()) - 1;
    const int column =
        currentIndex().isValid() ? currentIndex().column() : horizontalHeader()->logicalIndex(0);
    return model()->index(row, std::max(0, column), rootIndex());
}

QItemSelectionModel::SelectionFlags RowTableView::selectionCommand(const QModelIndex &index,
                                                                   const QEvent *event) const
{
    if (event && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<const QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Home || key->key() == Qt::Key_End) &&
            key->modifiers() == Qt::ControlModifier)
            return QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows;
    }
    return QTableView::selectionCommand(index, event);
}

} // namespace md::views
