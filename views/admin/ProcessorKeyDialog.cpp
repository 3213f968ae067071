#include "views/admin/ProcessorKeyDialog.h"

#include "models/admin/ProcessorKeyEdit.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace md::views {

ProcessorKeyDialog::ProcessorKeyDialog(backend::BillingBackend *backend, QWidget *parent)
    : QDialog(parent)
    , m_edit(new models::ProcessorKeyEdit(backend, this))
    , m_summary(new QLabel(this))
    , m_secret(new QLineEdit(this))
    , m_connect(new QPushButton(tr("&Connect"), this))
    , m_disconnect(new QPushButton(tr("&Disconnect"), this))
{
    setWindowTitle(tr("Stripe key"));
    m_summary->setObjectName(QStringLiteral("stripeKeySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_secret->setObjectName(QStringLiteral("stripeSecret"));
    // Typed once, never shown: no echo, no completion, nothing kept.
    m_secret->setEchoMode(QLineEdit::Password);
    m_secret->setPlaceholderText(tr("sk_test_… or rk_test_… (this connection's environment)"));
    m_connect->setEnabled(false);
    m_connect->setDefault(true);
    auto *form = new QFormLayout;
    form->addRow(tr("New &secret key:"), m_secret);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_connect, QDialogButtonBox::ActionRole);
    buttons->addButton(m_disconnect, QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    auto *about = new QLabel(
        tr("The organization's Stripe secret key lets Meterdesk read Stripe: the imports "
           "linked to subscriptions, the check against Stripe, and a platform's links. "
           "It is stored sealed on the server; only its last four characters are shown. "
           "Meterdesk never writes to Stripe, so a restricted key that reads accounts, "
           "customers and subscriptions is enough."),
        this);
    about->setWordWrap(true);
    layout->addWidget(about);
    layout->addWidget(m_summary);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(560, 240);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_secret, &QLineEdit::textChanged, this, &ProcessorKeyDialog::showState);
    connect(m_connect, &QPushButton::clicked, this, [this] {
        const QString secret = m_secret->text();
        m_secret->clear(); // nothing of it stays in the window
        m_edit->connectKey(secret);
    });
    connect(m_disconnect, &QPushButton::clicked, m_edit, &models::ProcessorKeyEdit::disconnectKey);
    connect(m_edit, &models::ProcessorKeyEdit::changed, this, &ProcessorKeyDialog::showState);
    m_edit->load();
}

void ProcessorKeyDialog::showState()
{
    m_summary->setText(m_edit->summary());
    m_summary->setStyleSheet(m_edit->failed() ? QStringLiteral("color:#c62828") : QString());
    m_connect->setEnabled(!m_edit->busy() && !m_secret->text().trimmed().isEmpty());
    m_disconnect->setEnabled(!m_edit->busy() && !m_edit->keys().isEmpty());
}

} // namespace md::views
