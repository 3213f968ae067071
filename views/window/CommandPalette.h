// Ctrl+Shift+P: every action of the window in one searchable list; Enter
// runs the chosen one. Keyboard users reach everything from here.
#pragma once

#include <QDialog>

class QAction;
class QLineEdit;
class QListWidget;

namespace md::views {

class CommandPalette final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandPalette)

public:
    CommandPalette(const QList<QAction *> &actions, QWidget *parent = nullptr);

    QLineEdit *search() const { return m_search; }
    QListWidget *list() const { return m_list; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void filter(const QString &text);
    void runCurrent();

    QList<QAction *> m_actions;
    QLineEdit *m_search;
    QListWidget *m_list;
};

} // namespace md::views
