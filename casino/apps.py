"""The admin app, with the site that filters only on what its list filters offer (casino/admin_lookups.py)."""

from django.contrib.admin.apps import AdminConfig


class CasinoAdminConfig(AdminConfig):
    default_site = "casino.admin_lookups.StrictAdminSite"
