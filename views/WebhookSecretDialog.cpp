#include "views/WebhookSecretDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

WebhookSecretDialog::WebhookSecretDialog(const QString &url, const QString &secret, bool rotated,
                                         QWidget *parent)
    : QDialog(parent)
    , m_secret(new QLineEdit(secret, this))
    , m_copy(new QPushButton(tr("&Copy"), this))
{
    setWindowTitle(tr("Signing secret"));
    auto *intro = new QLabel(
        (rotated ? tr("The new signing secret of %1. The previous one keeps signing beside it "
                      "for 24 hours, so the receiver can switch without refusing a delivery.")
                 : tr("The signing secret of %1. Give it to the receiver, which checks every "
                      "delivery's webhook-signature with it (Standard Webhooks)."))
                .arg(url.toHtmlEscaped()) +
            u"<p><b>%1</b></p>"_s.arg(
                tr("It is shown only now: copy it before closing this window.")),
        this);
    intro->setWordWrap(true);
    m_secret->setObjectName(u"webhookSecret"_s);
    m_secret->setReadOnly(true);
    m_secret->setMinimumWidth(m_secret->fontMetrics().horizontalAdvance(secret) + 24);
    m_copy->setObjectName(u"webhookSecretCopy"_s);
    auto *row = new QHBoxLayout;
    row->addWidget(m_secret, 1);
    row->addWidget(m_copy);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(row);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::accept);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_secret->text());
        m_copy->setText(tr("Copied"));
    });
    m_secret->selectAll();
    m_secret->setFocus();
}

} // namespace md::views
