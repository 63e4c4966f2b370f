from django.contrib.auth import views as auth_views
from django.urls import path

from companion.pwa.views import LogoutEverywhereView
from companion.tables.limits import limit_logins

from . import views

# Django's login, logout and password change (django.contrib.auth.urls, under the same names), and
# the account's page. Password reset is left out: it needs mail. Login attempts count per address at
# the rate of table creation (RATELIMIT_TABLES).
urlpatterns = [
    path("", views.account, name="account"),
    path("login/", limit_logins(auth_views.LoginView.as_view()), name="login"),
    path("logout/", LogoutEverywhereView.as_view(), name="logout"),  # and the phone's copies
    path("password_change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("sign-out/<slug:login_handle>/", views.sign_out, name="sign_out"),
    path("sign-out-everywhere/", views.sign_out_everywhere, name="sign_out_everywhere"),
]
