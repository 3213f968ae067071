#include "views/window/CommandPalette.h"

#include <QAction>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

namespace md::views {

namespace {

QString plainText(const QAction *action)
{
    return QString(action->text()).remove(u'&');
}

} // namespace

CommandPalette::CommandPalette(const QList<QAction *> &actions, QWidget *parent)
    : QDialog(parent)
    , m_actions(actions)
    , m_search(new QLineEdit(this))
    , m_list(new QListWidget(this))
{
    setWindowTitle(tr("Command palette"));
    m_search->setObjectName(QStringLiteral("paletteSearch"));
    m_search->setPlaceholderText(tr("Type to find an action; Enter runs it"));
    m_list->setObjectName(QStringLiteral("paletteList"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_search);
    layout->addWidget(m_list);
    resize(480, 360);
    m_search->installEventFilter(this);
    connect(m_search, &QLineEdit::textChanged, this, &CommandPalette::filter);
    connect(m_search, &QLineEdit::returnPressed, this, &CommandPalette::runCurrent);
    connect(m_list, &QListWidget::itemActivated, this, &CommandPalette::runCurrent);
    filter(QString());
}

void CommandPalette::filter(const QString &text)
{
    m_list->clear();
    for (QAction *action : std::as_const(m_actions)) {
        if (!action->isEnabled() || action->isSeparator() || plainText(action).isEmpty())
            continue;
        if (!plainText(action).contains(text.trimmed(), Qt::CaseInsensitive))
            continue;
        auto *item = new QListWidgetItem(plainText(action), m_list);
        if (!action->shortcut().isEmpty())
            item->setText(tr("%1\t%2").arg(plainText(action),
                                           action->shortcut().toString(QKeySequence::NativeText)));
        item->setData(Qt::UserRole, QVariant::fromValue(static_cast<QObject *>(action)));
    }
    m_list->setCurrentRow(0);
}

void CommandPalette::runCurrent()
{
    QListWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    auto *action = qobject_cast<QAction *>(item->data(Qt::UserRole).value<QObject *>());
    accept();
    if (action)
        action->trigger();
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    // Up and Down move through the list while typing continues in the field.
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Down || key == Qt::Key_Up) {
            const int row = m_list->currentRow() + (key == Qt::Key_Down ? 1 : -1);
            if (row >= 0 && row < m_list->count())
                m_list->setCurrentRow(row);
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace md::views
