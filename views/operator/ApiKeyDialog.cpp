#include "views/operator/ApiKeyDialog.h"

#include "models/connection/KeyScopes.h"
#include "models/operator/ApiKeyModel.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

ApiKeyDialog::ApiKeyDialog(models::ApiKeyModel *keys, const models::KeyScopes *scopes,
                           QWidget *parent)
    : QDialog(parent)
    , m_keys(keys)
    , m_name(new QLineEdit(this))
    , m_all(new QCheckBox(tr("&All scopes, now and later"), this))
    , m_expires(new QCheckBox(tr("E&xpires"), this))
    , m_expiry(new QDateTimeEdit(QDateTime::currentDateTime().addDays(90), this))
    , m_problem(new QLabel(this))
    , m_create(new QPushButton(tr("Create &key"), this))
    , m_holder(scopes)
{
    setWindowTitle(tr("New API key"));
    m_name->setObjectName(u"keyName"_s);
    m_name->setMaxLength(int(api::ApiKey::MaxName));
    m_name->setPlaceholderText(tr("What it is for: \"finance dashboard\", \"billing sync\""));
    m_all->setObjectName(u"allScopes"_s);
    auto *scopeGrid = new QGridLayout;
    scopeGrid->addWidget(m_all, 0, 0, 1, 2);
    for (const QString &scope : api::apiKeyScopes()) {
        if (scope == "*"_L1)
            continue;
        auto *box = new QCheckBox(scope, this);
        box->setObjectName(u"scope:"_s + scope);
        box->setProperty("scope", scope);
        const int index = int(m_scopes.size());
        scopeGrid->addWidget(box, 1 + index / 2, index % 2);
        m_scopes.append(box);
        connect(box, &QCheckBox::toggled, this, &ApiKeyDialog::updateState);
    }
    m_expires->setObjectName(u"keyExpires"_s);
    m_expiry->setObjectName(u"keyExpiry"_s);
    m_expiry->setAccessibleName(tr("Expiry"));
    m_expiry->setCalendarPopup(true);
    m_expiry->setMinimumDateTime(QDateTime::currentDateTime());
    m_problem->setObjectName(u"keyProblem"_s);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(u"color:#c62828"_s);
    m_create->setObjectName(u"createKey"_s);
    m_create->setDefault(true);

    auto *expiryRow = new QHBoxLayout;
    expiryRow->addWidget(m_expires);
    expiryRow->addWidget(m_expiry, 1);
    auto *form = new QFormLayout;
    form->addRow(tr("&Name"), m_name);
    auto *scopesLabel = new QLabel(tr("&Scopes"), this);
    scopesLabel->setBuddy(m_all);
    form->addRow(scopesLabel, scopeGrid);
    form->addRow(tr("Expiry"), expiryRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(m_create, QDialogButtonBox::AcceptRole);
    auto *note = new QLabel(tr("A key can hand out only the scopes this connection's key "
                               "holds. Its secret is shown once, when it is made."),
                            this);
    note->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);

    connect(m_name, &QLineEdit::textChanged, this, &ApiKeyDialog::updateState);
    connect(m_all, &QCheckBox::toggled, this, &ApiKeyDialog::updateState);
    connect(m_expires, &QCheckBox::toggled, this, &ApiKeyDialog::updateState);
    connect(m_expiry, &QDateTimeEdit::dateTimeChanged, this, &ApiKeyDialog::updateState);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_create, &QPushButton::clicked, this, &ApiKeyDialog::create);
    updateState();
}

QCheckBox *ApiKeyDialog::scopeBox(const QString &scope) const
{
    return findChild<QCheckBox *>(u"scope:"_s + scope);
}

void ApiKeyDialog::updateState()
{
    const auto holds = [this](const QString &scope) {
        return !m_holder || m_holder->allowsAny({scope});
    };
    m_all->setEnabled(holds(u"*"_s));
    for (QCheckBox *box : std::as_const(m_scopes)) {
        const bool held = holds(box->property("scope").toString());
        box->setEnabled(!m_all->isChecked() && held);
        box->setToolTip(held ? QString() : m_holder->refusal({box->property("scope").toString()}));
    }
    m_expiry->setEnabled(m_expires->isChecked());
    m_problem->clear();
}

void ApiKeyDialog::create()
{
    models::ApiKeyForm form;
    form.name = m_name->text();
    if (m_all->isChecked()) {
        form.scopes = {u"*"_s};
    } else {
        for (const QCheckBox *box : std::as_const(m_scopes))
            if (box->isChecked())
                form.scopes.append(box->property("scope").toString());
    }
    if (m_expires->isChecked())
        form.expires = m_expiry->dateTime();
    if (const auto problem = form.problem(QDateTime::currentDateTime())) {
        m_problem->setText(*problem);
        return;
    }
    m_create->setEnabled(false);
    m_busy = true;
    m_keys->create(form).then(this, [this](const api::Result<api::ApiKey> &made) {
        m_busy = false;
        m_create->setEnabled(true);
        if (!made) {
            m_problem->setText(tr("The key was not made: %1").arg(made.error().message));
            return;
        }
        Q_EMIT created(made.value());
        accept();
    });
}

void ApiKeyDialog::reject()
{
    if (!m_busy)
        QDialog::reject();
}

void ApiKeyDialog::closeEvent(QCloseEvent *event)
{
    if (m_busy) {
        event->ignore();
        return;
    }
    QDialog::closeEvent(event);
}

} // namespace md::views
