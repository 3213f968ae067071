// A table of records chosen by row: what is highlighted is what is chosen.
// Qt's extended selection lets Ctrl+Home and Ctrl+End move the focus without
// the highlight (and to the last column), so a pane that follows the focus
// would describe a row the user does not see chosen; here both keys choose
// the first or last row, in the column the focus is in, Ctrl+Shift+Home and
// Ctrl+Shift+End choose every row from the current one to the first or last
// (Qt's only moved the focus), and selectedRecordRow() is the one row a
// detail pane or an action may act on.
#pragma once

#include <QTableView>

namespace md::views {

class RowTableView final : public QTableView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowTableView)

public:
    explicit RowTableView(QWidget *parent = nullptr);

    void setSelectionModel(QItemSelectionModel *selectionModel) override;
    // The row when exactly one is selected, else -1.
    int selectedRecordRow() const;
    int selectedRowCount() const;

Q_SIGNALS:
    // The selected rows changed (or the rows under them were replaced).
    void recordSelectionChanged();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    QItemSelectionModel::SelectionFlags selectionCommand(const QModelIndex &index,
                                                         const QEvent *event) const override;
};

} // namespace md::views
