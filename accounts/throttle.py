"""Whose sign-in attempts count together: the client's address, proxy headers believed only from TRUSTED_PROXIES.

The rule lives in casino/proxies.py (AXES_CLIENT_IP_CALLABLE); this name stays for the callers that import it here.
"""

from casino.proxies import client_address

__all__ = ["client_address"]
