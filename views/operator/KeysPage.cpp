#include "views/operator/KeysPage.h"

#include "models/common/AmountFormat.h"
#include "models/connection/KeyScopes.h"
#include "models/operator/ApiKeyModel.h"
#include "views/operator/ApiKeyDialog.h"
#include "views/operator/SecretDialog.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;
using models::ApiKeyModel;

KeysPage::KeysPage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_keys(new ApiKeyModel(backend, this))
    , m_table(new QTableView(this))
    , m_new(new QPushButton(tr("&New key…"), this))
    , m_roll(new QPushButton(tr("R&oll…"), this))
    , m_revoke(new QPushButton(tr("&Revoke…"), this))
    , m_note(new QLabel(this))
{
    m_table->setObjectName(u"apiKeys"_s);
    m_table->setModel(m_keys);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_new->setObjectName(u"newKey"_s);
    m_roll->setObjectName(u"rollKey"_s);
    m_revoke->setObjectName(u"revokeKey"_s);
    m_note->setObjectName(u"keysNote"_s);
    m_note->setWordWrap(true);
    m_note->setText(tr("The keys of this organization's environment. A secret is shown once, "
                       "when a key is made or rolled; here only its first characters."));

    auto *bar = new QHBoxLayout;
    auto *title = new QLabel(u"<b>%1</b>"_s.arg(tr("API &keys")), this);
    title->setBuddy(m_table);
    bar->addWidget(title);
    bar->addStretch(1);
    for (QPushButton *button : {m_new, m_roll, m_revoke})
        bar->addWidget(button);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addLayout(bar);
    layout->addWidget(m_note);
    layout->addWidget(m_table, 1);

    connect(m_new, &QPushButton::clicked, this, &KeysPage::newKey);
    connect(m_roll, &QPushButton::clicked, this, &KeysPage::rollKey);
    connect(m_revoke, &QPushButton::clicked, this, &KeysPage::revokeKey);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &KeysPage::updateState);
    connect(m_keys, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        if (m_reselect.isEmpty() && currentKey() >= 0)
            m_reselect = m_keys->key(currentKey()).id;
    });
    connect(m_keys, &models::ListTableModel::loaded, this, [this] {
        m_table->resizeColumnsToContents();
        const int row = m_reselect.isEmpty() ? 0 : std::max(0, m_keys->rowOf(m_reselect));
        m_reselect.clear();
        if (row < m_keys->rowCount())
            m_table->setCurrentIndex(m_keys->index(row, 0));
        updateState();
    });
    connect(m_keys, &models::ListTableModel::failed, this, [this](const api::ApiError &e) {
        Q_EMIT statusMessage(tr("The API keys could not be loaded: %1").arg(e.message));
    });
    updateState();
}

void KeysPage::refresh()
{
    m_keys->reload();
}

void KeysPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh(); // last use moves on its own
}

int KeysPage::currentKey() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void KeysPage::updateState()
{
    const int row = currentKey();
    const bool live =
        row >= 0 && !ApiKeyModel::isOver(m_keys->key(row), QDateTime::currentMSecsSinceEpoch());
    m_roll->setEnabled(live);
    m_revoke->setEnabled(live);
}

ApiKeyDialog *KeysPage::newKey()
{
    auto *dialog = new ApiKeyDialog(m_keys, m_scopes, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ApiKeyDialog::created, this, [this](const api::ApiKey &made) {
        m_reselect = made.id;
        showSecret(made, tr("The secret of the new API key “%1”. Put it where the program that "
                            "uses it keeps its secrets.")
                             .arg(made.name.toHtmlEscaped()));
        Q_EMIT statusMessage(tr("API key “%1” made.").arg(made.name));
    });
    dialog->open();
    return dialog;
}

void KeysPage::rollKey()
{
    const int row = currentKey();
    if (row < 0)
        return;
    const api::ApiKey key = m_keys->key(row);
    const QList<std::pair<QString, qint64>> overlaps{
        {tr("Stop the old secret now (it leaked)"), 0},
        {tr("Keep it working for 1 hour"), 3'600'000},
        {tr("Keep it working for 1 day"), 86'400'000},
        {tr("Keep it working for 7 days"), api::ApiKey::MaxOverlapMs}};
    QStringList choices;
    for (const auto &choice : overlaps)
        choices.append(choice.first);
    auto *ask = new QInputDialog(this);
    ask->setObjectName(u"rollKeyAsk"_s);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("Roll API key"));
    // Rich text with the name escaped: a name is anyone's words, never markup.
    ask->setLabelText(u"<p>%1</p>"_s.arg(
        tr("Give “%1” (%2) a new secret. Its programs need the new one; how long may the old "
           "one keep working?")
            .arg(key.name.toHtmlEscaped(), key.prefix)));
    ask->setComboBoxItems(choices);
    ask->setTextValue(choices.at(1));
    ask->setOkButtonText(tr("&Roll"));
    connect(ask, &QInputDialog::textValueSelected, this,
            [this, id = key.id, overlaps, choices](const QString &chosen) {
                const qint64 overlap =
                    overlaps.at(std::max(0, int(choices.indexOf(chosen)))).second;
                m_keys->roll(id, overlap).then(this, [this](const api::Result<api::ApiKey> &r) {
                    if (r)
                        m_reselect = r.value().id;
                    if (!r) {
                        QMessageBox::warning(this, tr("Key not rolled"), r.error().message);
                        return;
                    }
                    const api::ApiKey &k = r.value();
                    showSecret(k, k.previousExpiresAt
                                      ? tr("The new secret of “%1”. The old one keeps working "
                                           "until %2.")
                                            .arg(k.name.toHtmlEscaped(),
                                                 models::formatShortTimestamp(*k.previousExpiresAt))
                                      : tr("The new secret of “%1”. The old one no longer works.")
                                            .arg(k.name.toHtmlEscaped()));
                });
            });
    ask->open();
}

void KeysPage::revokeKey()
{
    const int row = currentKey();
    if (row < 0)
        return;
    const api::ApiKey key = m_keys->key(row);
    const bool own = m_scopes && m_scopes->ownKeyId() == key.id;
    const QString question =
        own ? tr("“%1” (%2) is the key this console is connected with. Revoking it disconnects "
                 "this console within a second, and you will need another key to connect again. "
                 "Every other program using it is refused too. This cannot be undone.")
                  .arg(key.name, key.prefix)
            : tr("Revoke “%1” (%2)? Every program using it is refused within a second. This "
                 "cannot be undone.")
                  .arg(key.name, key.prefix);
    auto *ask = new QMessageBox(QMessageBox::Warning, tr("Revoke API key"), question,
                                QMessageBox::Cancel, this);
    ask->setObjectName(u"revokeKeyAsk"_s);
    ask->setTextFormat(Qt::PlainText); // a name is anyone's words, never markup
    ask->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *revoke = ask->addButton(tr("&Revoke"), QMessageBox::DestructiveRole);
    revoke->setObjectName(u"confirmRevoke"_s);
    ask->setDefaultButton(QMessageBox::Cancel);
    connect(revoke, &QPushButton::clicked, this, [this, id = key.id, name = key.name] {
        m_keys->revoke(id).then(this, [this, name](const api::Result<api::ApiKey> &r) {
            if (r)
                m_reselect = r.value().id;
            Q_EMIT statusMessage(r ? tr("API key “%1” revoked.").arg(name)
                                   : tr("“%1” was not revoked: %2").arg(name, r.error().message));
        });
    });
    ask->open();
}

void KeysPage::showSecret(const api::ApiKey &key, const QString &intro)
{
    if (!key.secret)
        return;
    auto *shown = new SecretDialog(tr("API key secret"), intro, *key.secret, this);
    shown->setAttribute(Qt::WA_DeleteOnClose);
    shown->open();
}

} // namespace md::views
